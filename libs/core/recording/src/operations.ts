import { z } from 'zod';
import { defineOperation, deviceField, MAX_DEVICE_ID_LENGTH, type AnyOperation, type OperationContext } from '@apex/capability';
import { MAX_LISTED_RECORDINGS, RECORDING_FPS, RECORDING_SCALE, RECORDING_SECONDS } from './limits';
import { END_REASONS } from './recording';
import type { RecordingService } from './recording-service';

/** What the recording operations run against: the runtime's context with its recording service. */
export type RecordingOperationContext = OperationContext & { recordings: RecordingService };

/** Where REST serves a finished recording (range requests, so a player can seek). No host path is given out. */
export function recordingUrl(id: string): string {
  return `/recordings/${id}`;
}

const idOut = z.string().describe('recording id');
const urlOut = z.string().describe('GET it from the Apex REST server: an MP4 (H.264)');
const endedByOut = z.enum(END_REASONS).describe('stopped, max_seconds, max_bytes (disk bound), device_gone, shutdown');

export const startRecordingOperation = defineOperation({
  name: 'start_recording',
  title: 'Start screen recording',
  description:
    'Records the screen to an MP4 (H.264) until stop_recording, maxSeconds or the device goes away (a still screen records as still time). One per device.',
  input: z.strictObject({
    device: deviceField,
    fps: z.number().int().min(RECORDING_FPS.min).max(RECORDING_FPS.max).default(RECORDING_FPS.default).describe('video frames per second'),
    scale: z
      .number()
      .min(RECORDING_SCALE.min)
      .max(RECORDING_SCALE.max)
      .default(RECORDING_SCALE.default)
      .describe('video size / screen image size (longest side ≤ 1280 px)'),
    maxSeconds: z.number().int().min(RECORDING_SECONDS.min).max(RECORDING_SECONDS.max).default(RECORDING_SECONDS.default),
  }),
  output: z.object({
    id: idOut,
    device: z.string(),
    fps: z.number(),
    width: z.number().describe('pixels'),
    height: z.number().describe('pixels'),
    maxSeconds: z.number(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'evidence',
  handler: (ctx: RecordingOperationContext, { device, fps, scale, maxSeconds }) => ctx.recordings.start(ctx, device, { fps, scale, maxSeconds }),
  summarize: (r) => `Recording ${r.id} of ${r.device} started: ${r.width}×${r.height} at ${r.fps} fps; it ends at stop_recording or after ${r.maxSeconds} s.`,
});

export const stopRecordingOperation = defineOperation({
  name: 'stop_recording',
  title: 'Stop screen recording',
  description: "Ends the device's recording (or answers the one that ended by itself) once its MP4 is complete: `url` to GET it from the Apex REST server.",
  input: z.strictObject({ device: deviceField }),
  output: z.object({
    id: idOut,
    device: z.string(),
    url: urlOut,
    seconds: z.number().describe('video length'),
    frames: z.number(),
    bytes: z.number(),
    endedBy: endedByOut,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'evidence',
  handler: async (ctx: RecordingOperationContext, { device }) => {
    const { id, seconds, frames, bytes, endedBy } = await ctx.recordings.stop(device);
    return { id, device, url: recordingUrl(id), seconds, frames, bytes, endedBy };
  },
  summarize: (r) => `Recording ${r.id}: ${r.seconds.toFixed(1)} s, ${r.frames} frames, ${Math.round(r.bytes / 1024)} KB (${r.endedBy}); GET ${r.url}`,
});

export const listRecordingsOperation = defineOperation({
  name: 'list_recordings',
  title: 'List screen recordings',
  description: 'The kept screen recordings, newest first, with those in progress.',
  input: z.strictObject({
    device: z.string().min(1).max(MAX_DEVICE_ID_LENGTH).optional().describe('only this device'),
    limit: z.number().int().min(1).max(MAX_LISTED_RECORDINGS).default(50),
  }),
  output: z.object({
    recordings: z.array(
      z.object({
        id: idOut,
        device: z.string(),
        startedAt: z.string().describe('ISO time'),
        seconds: z.number(),
        frames: z.number(),
        bytes: z.number().optional().describe('finished recordings'),
        recording: z.boolean().describe('still in progress'),
        endedBy: endedByOut.optional(),
        url: urlOut.optional(),
      }),
    ),
    total: z.number().describe('recordings matching, listed or not'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'evidence',
  handler: async (ctx: RecordingOperationContext, { device, limit }) => {
    const { recordings, total } = await ctx.recordings.list({ device, limit });
    return { recordings: recordings.map((r) => (r.recording ? r : { ...r, url: recordingUrl(r.id) })), total };
  },
  summarize: (r) =>
    r.recordings.length === 0
      ? 'No recordings.'
      : `${r.total} recording(s):\n${r.recordings.map((e) => `${e.id} ${e.device} ${e.startedAt} ${e.seconds.toFixed(1)} s${e.recording ? ' (recording)' : ''}`).join('\n')}`,
});

/** The recording operations, for the runtime's catalog (beside the device and task operations). */
export const RECORDING_OPERATIONS: readonly AnyOperation[] = [startRecordingOperation, stopRecordingOperation, listRecordingsOperation];
