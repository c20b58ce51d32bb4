/**
 * Evidence (issue 34): what screen recording costs, per device, at 10 fps. The virtual iPhone runs in a process
 * of its own (`apex emulator` with its MJPEG stream, as a real phone's agent serves one), so this process is Apex
 * alone: the hub, the WDA driver reading the stream, and the recording service feeding the encoder (ffmpeg, a
 * child process). Measured over a window of wall time: this process's CPU (process.cpuUsage) and the encoder's
 * (utime + stime from /proc), as % of one core, on a still screen and on a screen scrolled all the time — each
 * next to the same activity without a recording (the baseline), so the recording's own cost is
 * (Apex − baseline) + encoder. Then the resident memory of both processes over one long recording (default
 * 10 min; APEX_BENCH_EVIDENCE_SECONDS sets it). Target (issue 34): ≤ 25 % of one core per device. And get_logs
 * latency on both virtual phones, next to a raw read of the same source (evidence-logs.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runOperation, type OperationResult } from '@apex/capability';
import { createWdaDriver } from '@apex/driver-wda';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { RECORDING_OPERATIONS, RECORDING_SECONDS, RecordingService, type RecordingOperationContext } from '@apex/recording';
import { spawnNode, type SpawnedProcess } from '@apex/testing';
import { SETTINGS_BUNDLE_ID } from '@apex/virtual-device';
import { logsLatency } from './evidence-logs';
import { rawWda, type RawWda } from './support/raw-wda';
import { cpuMs, ownCpuMs, rssBytes, threadCount } from './support/proc';
import { target, type Section, type SectionResult } from './support/section';
import { APEX_BIN } from './support/stack';
import { round } from './support/stats';

const FPS = 10;
/** After the encoder has opened: time for it to encode the frames it held while probing. */
const SETTLE_MS = 3_000;
const DEVICE = 'iphone';
const MB = 1024 * 1024;
/** The long recording's length in seconds (issue 34: 10 minutes). */
export const EVIDENCE_SECONDS_ENV = 'APEX_BENCH_EVIDENCE_SECONDS';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `apex emulator` with its MJPEG stream, in a process of its own. */
interface SpawnedIPhone {
  url: string;
  mjpegUrl: string;
  child: SpawnedProcess;
  close(): Promise<void>;
}

async function spawnIPhone(): Promise<SpawnedIPhone> {
  const env = { ...process.env };
  delete env.APEX_CONFIG;
  const child = spawnNode([APEX_BIN, 'emulator', '--port', '0', '--mjpeg-port', '0'], { env, cwd: os.tmpdir() });
  const close = async () => {
    child.kill('SIGTERM');
    await child.waitForExit({ timeoutMs: 15_000 });
  };
  try {
    const [, url] = await child.waitForLine(/speaks WebDriverAgent at (http:\/\/\S+)/, { timeoutMs: 60_000 });
    const [, mjpegUrl] = await child.waitForLine(/Screen stream \(MJPEG\) at (http:\/\/\S+)/, { timeoutMs: 10_000 });
    return { url: url as string, mjpegUrl: mjpegUrl as string, child, close };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/**
 * Scrolls the Settings list up and down through raw WDA drags, one every `pauseMs`, until stopped; `stop()`
 * rethrows the first failed drag (a broken scroller must not pass for a quiet screen).
 */
function startScrolling(raw: RawWda, sessionId: string, pauseMs = 100): { stop(): Promise<number> } {
  let running = true;
  let drags = 0;
  const loop = (async () => {
    for (let up = true; running; up = !up) {
      const [fromY, toY] = up ? [650, 350] : [350, 650];
      await raw.post(`/session/${sessionId}/wda/dragfromtoforduration`, { fromX: 200, fromY, toX: 200, toY, duration: 0 });
      drags += 1;
      await sleep(pauseMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return drags;
    },
  };
}

/** CPU of this process and (when given) the encoder's over `seconds` of wall time, as % of one core. */
async function cpuWindow(seconds: number, encoderPid?: number): Promise<{ apex: number; encoder: number | null }> {
  const started = performance.now();
  const own = ownCpuMs();
  const encoder = encoderPid === undefined ? 0 : cpuMs(encoderPid);
  await sleep(seconds * 1000);
  const wall = performance.now() - started;
  return {
    apex: (100 * (ownCpuMs() - own)) / wall,
    encoder: encoderPid === undefined ? null : (100 * (cpuMs(encoderPid) - encoder)) / wall,
  };
}

/**
 * Resolves once the encoder has begun encoding (its H.264 threads exist). The engine tells ffmpeg not to probe
 * its input (`-probesize 32 -analyzeduration 0`), so this is a fraction of a second after the first frame; without
 * that it held ~5.5 s of frames first. A window that started before would not measure the steady cost.
 */
async function encoderOpened(pid: number, limitMs = 60_000): Promise<number> {
  const started = performance.now();
  while (threadCount(pid) <= 1) {
    if (performance.now() - started > limitMs) throw new Error(`the encoder (process ${pid}) did not begin encoding in ${limitMs / 1000} s of recording`);
    await sleep(100);
  }
  return (performance.now() - started) / 1000;
}

/** Resident memory of this process and the encoder, sampled every `everyMs`. */
interface RssSample {
  atSeconds: number;
  apex: number;
  encoder: number;
}

function minMaxEnd(values: number[]): { start: number; max: number; end: number } {
  return { start: values[0] ?? Number.NaN, max: Math.max(...values), end: values.at(-1) ?? Number.NaN };
}

export const evidenceSection: Section = {
  name: 'evidence',
  description: 'screen recording at 10 fps: CPU of Apex + encoder per device (still / scrolling), RSS over a long recording',
  async run({ quick, log }): Promise<SectionResult> {
    const windowSeconds = quick ? 4 : 30;
    const longSeconds = Number(process.env[EVIDENCE_SECONDS_ENV] ?? (quick ? 20 : 600));
    if (!Number.isFinite(longSeconds) || longSeconds < 5 || longSeconds > RECORDING_SECONDS.max - 120) {
      throw new Error(`${EVIDENCE_SECONDS_ENV} must be a number of seconds from 5 to ${RECORDING_SECONDS.max - 120}, got ${process.env[EVIDENCE_SECONDS_ENV]}`);
    }
    const sampleMs = quick ? 2_000 : 5_000;
    const iphone = await spawnIPhone();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-evidence-'));
    const hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: DEVICE, driver: createWdaDriver({ deviceId: DEVICE, url: iphone.url, mjpegUrl: iphone.mjpegUrl }) });
    const perception = new Perception(hub);
    const recordings = new RecordingService({ dir: path.join(dir, 'recordings') });
    const ctx: RecordingOperationContext = { hub, perception, recordings };
    const raw = rawWda(iphone.url);
    const run = (name: string, input: Record<string, unknown>): Promise<OperationResult> => runOperation(ctx, name, { device: DEVICE, ...input }, RECORDING_OPERATIONS);
    const result: SectionResult = {
      title: `Screen recording of the virtual iPhone at ${FPS} fps (its MJPEG stream, native size → H.264 ≤ 1280 px), % of one core over ${windowSeconds} s; get_logs latency`,
      columns: ['case', 'Apex without recording %', 'Apex recording %', 'encoder %', 'recording cost %', 'frames', 'MB', 'p50 ms', 'p95 ms', 'raw p50 ms', '× raw', 'n'],
      rows: [],
      targets: [],
      notes: [],
    };
    try {
      const session = JSON.parse(await raw.post('/session', { capabilities: { alwaysMatch: { bundleId: SETTINGS_BUNDLE_ID } } })) as { value: { sessionId: string } };
      const sessionId = session.value.sessionId;
      // The scroller must change the screen, or "scrolling" would measure a still screen.
      const before = await raw.get('/screenshot');
      const probe = startScrolling(raw, sessionId);
      await sleep(50);
      await probe.stop();
      if ((await raw.get('/screenshot')) === before) throw new Error('dragging the Settings list did not change the screen');

      const start = async (maxSeconds: number) => {
        await run('start_recording', { fps: FPS, maxSeconds });
        const pid = recordings.encoderPid(DEVICE);
        if (pid === undefined) throw new Error('the recording started but no encoder process runs');
        return pid;
      };
      const stopChecked = async (atLeastSeconds: number) => {
        const stopped = (await run('stop_recording', {})).output as { frames: number; seconds: number; bytes: number; endedBy: string };
        if (stopped.endedBy !== 'stopped' || stopped.frames < atLeastSeconds * FPS * 0.9 || stopped.bytes <= 0) {
          throw new Error(`the recording is not what was asked: ${JSON.stringify(stopped)} for at least ${atLeastSeconds.toFixed(1)} s at ${FPS} fps`);
        }
        return stopped;
      };
      /** One recording, with the CPU of both processes over a window of `seconds` once the encoder is steady (opened, then SETTLE_MS). */
      const recordWindow = async (seconds: number) => {
        const pid = await start(seconds + 120);
        const probeSeconds = await encoderOpened(pid);
        await sleep(SETTLE_MS);
        const cpu = await cpuWindow(seconds, pid);
        return { cpu, probeSeconds, stopped: await stopChecked(probeSeconds + SETTLE_MS / 1000 + seconds) };
      };

      const costs: Record<string, number> = {};
      const probes: number[] = [];
      for (const screen of ['still', 'scrolling'] as const) {
        const scroller = () => (screen === 'scrolling' ? startScrolling(raw, sessionId) : undefined);
        let activity = scroller();
        const baseline = await cpuWindow(windowSeconds);
        const baselineDrags = await activity?.stop();
        activity = scroller();
        const { cpu, stopped, probeSeconds } = await recordWindow(windowSeconds);
        probes.push(probeSeconds);
        const recordingDrags = await activity?.stop();
        const encoder = cpu.encoder ?? Number.NaN;
        const cost = cpu.apex - baseline.apex + encoder;
        costs[screen] = cost;
        log(`  ${screen}: Apex ${baseline.apex.toFixed(1)} % → ${cpu.apex.toFixed(1)} % recording, encoder ${encoder.toFixed(1)} %` +
          `${screen === 'scrolling' ? ` (${baselineDrags} / ${recordingDrags} drags)` : ''}`);
        result.rows.push({
          case: `recording, ${screen === 'still' ? 'still screen (Settings)' : 'scrolling screen (a drag every 100 ms)'}`,
          'Apex without recording %': round(baseline.apex, 1),
          'Apex recording %': round(cpu.apex, 1),
          'encoder %': round(encoder, 1),
          'recording cost %': round(cost, 1),
          frames: stopped.frames,
          MB: round(stopped.bytes / MB, 2),
        });
      }
      for (const [screen, cost] of Object.entries(costs)) {
        result.targets.push(target(`recording CPU per device at ${FPS} fps, ${screen} screen ((Apex − baseline) + encoder)`, '≤ 25 % of one core', cost, '%', cost <= 25));
      }
      result.notes.push(
        'The virtual iPhone runs in its own process (not counted); "Apex without recording" is the same process with the same activity and no recording, so the recording cost is Apex recording − Apex without + encoder.',
        `Each window starts once the encoder is past its input probe (it held the frames of the first ${probes.map((p) => p.toFixed(1)).join(' / ')} s before it began encoding them, in a burst) and ${SETTLE_MS / 1000} s more.`,
      );

      // One long recording of a scrolling screen: resident memory of both processes.
      log(`  long recording: ${longSeconds} s, RSS every ${sampleMs / 1000} s`);
      const scrolling = startScrolling(raw, sessionId, 250);
      const pid = await start(longSeconds + 120);
      const samples: RssSample[] = [];
      const started = performance.now();
      // From 1 s in: the encoder process has started its program (just spawned, it shows no resident memory yet).
      await sleep(1_000);
      for (;;) {
        const atSeconds = (performance.now() - started) / 1000;
        samples.push({ atSeconds, apex: process.memoryUsage().rss, encoder: rssBytes(pid) });
        if (atSeconds >= longSeconds) break;
        await sleep(Math.min(sampleMs, Math.max(0, (longSeconds - atSeconds) * 1000)));
      }
      const long = await stopChecked(longSeconds);
      await scrolling.stop();
      const apex = minMaxEnd(samples.map((s) => s.apex));
      const encoder = minMaxEnd(samples.map((s) => s.encoder));
      for (const [name, m] of [['Apex process', apex], ['encoder process', encoder]] as const) {
        result.notes.push(`RSS of the ${name} over a ${longSeconds} s recording (scrolling; ${samples.length} samples from 1 s in): start ${(m.start / MB).toFixed(1)} MB, max ${(m.max / MB).toFixed(1)} MB, end ${(m.end / MB).toFixed(1)} MB.`);
      }
      result.notes.push(`The long recording: ${long.frames} frames, ${long.seconds} s, ${(long.bytes / MB).toFixed(1)} MB.`);
      // get_logs on both virtual phones (in this process: its own phones, after the recording is done).
      const logs = await logsLatency(quick, log);
      result.rows.push(...logs.rows);
      result.notes.push(...logs.notes);
      result.data = {
        windowSeconds,
        longSeconds,
        rssMb: {
          apex: { start: round(apex.start / MB, 1), max: round(apex.max / MB, 1), end: round(apex.end / MB, 1) },
          encoder: { start: round(encoder.start / MB, 1), max: round(encoder.max / MB, 1), end: round(encoder.end / MB, 1) },
        },
        rssSamples: samples.map((s) => ({ s: round(s.atSeconds, 1), apexMb: round(s.apex / MB, 1), encoderMb: round(s.encoder / MB, 1) })),
        longRecording: long,
      };
      return result;
    } finally {
      await recordings.close();
      raw.close();
      await perception.close();
      await hub.close();
      await iphone.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
