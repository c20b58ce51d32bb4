import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ApexError, invalidArgument } from '@apex/errors';
import { openLiveScreen, type LiveScreen, type OperationContext, type RecordingFiles } from '@apex/capability';
import { DEFAULT_RECORDINGS_MAX_BYTES, RECORDING_ID_PATTERN } from './limits';
import { ActiveRecording, END_REASONS, type FinishedRecording, type RecordingSettings } from './recording';

export interface RecordingServiceOptions {
  /** Where the MP4s and their sidecars live (the runtime: `<dataDir>/recordings`). */
  dir: string;
  /** Bytes all kept recordings may take; the oldest are removed beyond it, and one recording ends past it. */
  maxBytes?: number;
  /** Milliseconds, monotonic; injectable so tests decide how much time passed. */
  clock?: () => number;
  tickMs?: number;
  /** How long start waits for the screen's first frame (default 15 s). */
  startTimeoutMs?: number;
  finishTimeoutMs?: number;
  logger?: { warn(details: object, message: string): void };
  /**
   * Where finished recordings are kept for every process to serve (a cluster's shared database): each one is
   * stored there once complete, and one this process does not have is fetched from there when asked for.
   */
  shared?: SharedRecordings;
}

/** Recordings kept where several Apex processes read them (PostgreSQL's `PostgresRecordings` of @apex/tasks). */
export interface SharedRecordings {
  /** Stores a finished recording (its sidecar and MP4 file); the oldest others go beyond `maxBytes`. */
  put(meta: FinishedRecording, file: string, maxBytes: number): Promise<void>;
  /** Writes the recording's MP4 to `file` and answers its sidecar; undefined when it is not kept there. */
  get(id: string, file: string): Promise<unknown>;
}

/** A recording as list_recordings shows it: finished, or still being recorded (`recording: true`). */
export interface RecordingEntry {
  id: string;
  device: string;
  startedAt: string;
  seconds: number;
  frames: number;
  /** Finished recordings only. */
  bytes?: number;
  recording: boolean;
  endedBy?: FinishedRecording['endedBy'];
}

export interface StartedRecording {
  id: string;
  device: string;
  fps: number;
  width: number;
  height: number;
  maxSeconds: number;
}

/** A device's recording: starting (no `recording` yet), or in progress until `done`. */
interface RecordingSlot {
  recording?: ActiveRecording;
  done?: Promise<FinishedRecording>;
  /** stop_recording has asked for it: it will not wait to be collected. */
  claimed: boolean;
}

const sidecarSchema = z.object({
  id: z.string().regex(RECORDING_ID_PATTERN),
  device: z.string(),
  startedAt: z.string(),
  seconds: z.number(),
  frames: z.number(),
  bytes: z.number(),
  fps: z.number(),
  width: z.number(),
  height: z.number(),
  endedBy: z.enum(END_REASONS),
});

/** A `.part` file untouched this long belongs to no recording in progress (a process that died): it is removed. */
const STALE_PART_MS = 10 * 60_000;

/**
 * The screen recordings of one process: at most one in progress per device, kept as `<id>.mp4` with a JSON
 * sidecar under `dir`, the oldest removed when all of them pass `maxBytes`. A recording that ended by itself
 * (maxSeconds, the device went away) is what the next stop_recording of its device answers.
 */
export class RecordingService implements RecordingFiles {
  readonly maxBytes: number;
  private readonly active = new Map<string, RecordingSlot>();
  /** Per device: a recording that ended without stop_recording, until stop_recording collects it. */
  private readonly unclaimed = new Map<string, Promise<FinishedRecording>>();
  private readonly clock: () => number;
  private closed = false;
  private swept = false;
  /** Recordings being fetched from the shared store, by id (two requests for one fetch it once). */
  private readonly fetching = new Map<string, Promise<boolean>>();

  constructor(private readonly options: RecordingServiceOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_RECORDINGS_MAX_BYTES;
    this.clock = options.clock ?? (() => performance.now());
  }

  /** Starts recording the device's screen; resolves once the first frame is in. */
  async start(ctx: OperationContext, device: string, settings: Omit<RecordingSettings, 'maxBytes'>): Promise<StartedRecording> {
    if (this.closed) throw new ApexError('internal', 'Recording is shutting down with the server.');
    const current = this.active.get(device);
    if (current) {
      const which = current.recording ? ` (recording ${current.recording.id})` : '';
      throw new ApexError('device_busy', `Device ${device} is already being recorded${which}; one recording per device at a time.`, {
        hint: 'Call stop_recording for this device first, or wait until the recording ends by itself (maxSeconds).',
        retryable: false,
      });
    }
    const slot: RecordingSlot = { claimed: false };
    this.active.set(device, slot);
    const leaveLive = new AbortController();
    try {
      await this.prepareDir();
      const live = await this.firstFrame(ctx, device, leaveLive);
      const id = `rec-${randomBytes(15).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 20)}`;
      const recording = new ActiveRecording({
        id,
        device,
        live,
        leaveLive,
        partFile: join(this.options.dir, `${id}.mp4.part`),
        file: this.fileOf(id),
        settings: { ...settings, maxBytes: this.maxBytes },
        clock: this.clock,
        tickMs: this.options.tickMs ?? 200,
        finishTimeoutMs: this.options.finishTimeoutMs ?? 30_000,
        onEncoderFailure: (error, diagnostics) => this.options.logger?.warn({ err: error, recording: id, diagnostics }, 'a recording could not be encoded'),
      });
      slot.recording = recording;
      this.unclaimed.delete(device);
      const done = recording.ended.then(async (finished) => {
        await writeFile(this.sidecarOf(id), JSON.stringify(finished));
        await this.prune(id);
        await this.share(finished);
        return finished;
      });
      slot.done = done;
      // Once complete, the device may be recorded again; a recording nobody stopped waits for stop_recording
      // (a failed one answers its error then).
      const settle = () => {
        if (this.active.get(device) === slot) this.active.delete(device);
        if (!slot.claimed) this.unclaimed.set(device, done);
      };
      done.then(settle, settle);
      return { id, device, fps: settings.fps, width: recording.width, height: recording.height, maxSeconds: settings.maxSeconds };
    } catch (error) {
      leaveLive.abort();
      this.active.delete(device);
      throw error;
    }
  }

  /** Ends the device's recording and answers it once its file is complete (or the one that ended by itself). */
  async stop(device: string): Promise<FinishedRecording> {
    const current = this.active.get(device);
    if (current?.recording && current.done) {
      current.claimed = true;
      current.recording.requestStop('stopped');
      return current.done;
    }
    if (current) {
      throw new ApexError('device_busy', `The recording of device ${device} is still starting.`, { hint: 'Call stop_recording again in a moment.' });
    }
    const ended = this.unclaimed.get(device);
    if (ended) {
      this.unclaimed.delete(device);
      return ended;
    }
    throw invalidArgument(`Device ${device} is not being recorded.`, undefined, 'Call start_recording first; list_recordings lists the finished recordings.');
  }

  /** The encoder process of the device's recording in progress (the bench measures its CPU), if there is one. */
  encoderPid(device: string): number | undefined {
    return this.active.get(device)?.recording?.encoderPid;
  }

  /** Recordings newest first (those in progress too), `device` only when given, at most `limit`. */
  async list(options: { device?: string; limit: number }): Promise<{ recordings: RecordingEntry[]; total: number }> {
    const entries: RecordingEntry[] = [];
    for (const { recording } of this.active.values()) {
      if (!recording) continue;
      entries.push({ id: recording.id, device: recording.device, startedAt: recording.startedAt, ...recording.progress, recording: true });
    }
    const inProgress = new Set(entries.map((entry) => entry.id));
    for (const finished of await this.finished()) {
      if (inProgress.has(finished.id)) continue;
      const { id, device, startedAt, seconds, frames, bytes, endedBy } = finished;
      entries.push({ id, device, startedAt, seconds, frames, bytes, recording: false, endedBy });
    }
    const matching = entries.filter((entry) => options.device === undefined || entry.device === options.device);
    matching.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    return { recordings: matching.slice(0, options.limit), total: matching.length };
  }

  async recordingFile(id: string): Promise<{ path: string; bytes: number }> {
    if (!RECORDING_ID_PATTERN.test(id)) {
      throw invalidArgument(`"${id.slice(0, 40)}" is not a recording id.`, [{ path: 'id', message: 'must be a recording id as start_recording and list_recordings give it (rec-…)' }]);
    }
    const path = this.fileOf(id);
    const here = async () => ({ path, bytes: (await stat(path)).size });
    try {
      return await here();
    } catch {
      // Not made (or no longer kept) here: made by another process of the cluster, perhaps.
      if (await this.fetchShared(id)) return here();
      throw new ApexError('recording_not_found', `There is no finished recording ${id}.`, {
        hint: 'list_recordings lists the recordings kept; one in progress is served once stop_recording has ended it.',
      });
    }
  }

  /** Stores a finished recording where the other processes read it; a failure leaves it served here only. */
  private async share(finished: FinishedRecording): Promise<void> {
    try {
      await this.options.shared?.put(finished, this.fileOf(finished.id), this.maxBytes);
    } catch (error) {
      this.options.logger?.warn({ err: error, recording: finished.id }, 'the recording could not be stored for the other nodes; it is served by this one only');
    }
  }

  /**
   * Copies a recording this process does not have from the shared store into its directory (then it is one of
   * its recordings, listed and kept within maxBytes like the others); false when the store has none.
   */
  private fetchShared(id: string): Promise<boolean> {
    const shared = this.options.shared;
    if (!shared) return Promise.resolve(false);
    let fetching = this.fetching.get(id);
    if (!fetching) {
      const part = join(this.options.dir, `${id}.mp4.fetch.part`);
      fetching = (async () => {
        await this.prepareDir();
        try {
          const meta = sidecarSchema.safeParse(await shared.get(id, part));
          if (!meta.success || meta.data.id !== id) return false;
          await rename(part, this.fileOf(id));
          await writeFile(this.sidecarOf(id), JSON.stringify(meta.data));
          await this.prune(id);
          return true;
        } finally {
          await rm(part, { force: true });
        }
      })().finally(() => this.fetching.delete(id));
      this.fetching.set(id, fetching);
    }
    return fetching;
  }

  /** Ends every recording in progress, each with a complete file. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.active.values()].map((slot) => {
      slot.recording?.requestStop('shutdown');
      return slot.done;
    });
    await Promise.allSettled(pending);
  }

  /** The live screen once its first frame is in, or `device_timeout` when none comes in time. */
  private async firstFrame(ctx: OperationContext, device: string, leaveLive: AbortController): Promise<LiveScreen> {
    const timeoutMs = this.options.startTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        leaveLive.abort();
        reject(
          new ApexError('device_timeout', `Device ${device} showed no screen within ${timeoutMs / 1000} s; nothing was recorded.`, {
            hint: 'Check the device with device_status, then call start_recording again.',
          }),
        );
      }, timeoutMs);
    });
    try {
      return await Promise.race([openLiveScreen(ctx, device, leaveLive.signal), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private fileOf(id: string): string {
    return join(this.options.dir, `${id}.mp4`);
  }

  private sidecarOf(id: string): string {
    return join(this.options.dir, `${id}.json`);
  }

  /** Creates the directory (private); once per process, removes what a process that died left half written. */
  private async prepareDir(): Promise<void> {
    await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    if (this.swept) return;
    this.swept = true;
    for (const name of await readdir(this.options.dir)) {
      if (!name.endsWith('.part')) continue;
      const path = join(this.options.dir, name);
      const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
      if (Date.now() - mtimeMs > STALE_PART_MS) await rm(path, { force: true });
    }
  }

  /** The finished recordings whose sidecar and file are both there. */
  private async finished(): Promise<FinishedRecording[]> {
    let names: string[];
    try {
      names = await readdir(this.options.dir);
    } catch {
      return [];
    }
    const found: FinishedRecording[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const parsed = sidecarSchema.safeParse(JSON.parse(await readFile(join(this.options.dir, name), 'utf8')));
        if (parsed.success && `${parsed.data.id}.json` === name) found.push(parsed.data);
      } catch {
        // A sidecar being written or damaged: not listed.
      }
    }
    return found;
  }

  /** Removes the oldest recordings (never `keep`) while all of them take more than maxBytes. */
  private async prune(keep: string): Promise<void> {
    const all = (await this.finished()).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    let total = all.reduce((sum, recording) => sum + recording.bytes, 0);
    for (const oldest of all) {
      if (total <= this.maxBytes) break;
      if (oldest.id === keep) continue;
      await rm(this.fileOf(oldest.id), { force: true });
      await rm(this.sidecarOf(oldest.id), { force: true });
      total -= oldest.bytes;
    }
  }
}
