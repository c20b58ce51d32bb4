import { z } from 'zod';
import { getCrashReport } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { clip, redactTexts } from '../evidence/log-window';
import { MAX_CRASH_FRAMES, MAX_CRASH_TEXT_CHARS } from '../limits';
import { deviceField, withoutControlCharacters } from '../schemas';

export const getCrashOperation = defineOperation({
  name: 'get_crash',
  title: 'Get crash report',
  description: `One crash report (id from list_crashes): exception, signal, reason, crashed thread's frames (innermost first, ≤ ${MAX_CRASH_FRAMES}), report text (≤ ${MAX_CRASH_TEXT_CHARS / 1000} K characters).`,
  input: z.strictObject({ device: deviceField, id: withoutControlCharacters(z.string().min(1).max(200)) }),
  output: z.object({
    id: z.string(),
    app: z.string(),
    time: z.string(),
    exception: z.string(),
    signal: z.string().optional(),
    reason: z.string().optional(),
    frames: z.array(z.string()),
    framesOmitted: z.number(),
    text: z.string(),
    textTruncated: z.boolean(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'evidence',
  handler: async (ctx, { device, id }) => {
    const report = await getCrashReport(ctx.hub, device, id);
    const secrets = ctx.hub.typedTexts(device);
    const text = redactTexts(report.text, secrets);
    return {
      id: report.id,
      app: report.app,
      time: new Date(report.time).toISOString(),
      exception: report.exception,
      ...(report.signal === undefined ? {} : { signal: report.signal }),
      ...(report.reason === undefined ? {} : { reason: clip(redactTexts(report.reason, secrets), 2_000) }),
      frames: report.frames.slice(0, MAX_CRASH_FRAMES).map((f) => clip(f, 500)),
      framesOmitted: Math.max(0, report.frames.length - MAX_CRASH_FRAMES),
      text: clip(text, MAX_CRASH_TEXT_CHARS),
      textTruncated: text.length > MAX_CRASH_TEXT_CHARS,
    };
  },
  summarize: (c) => `${c.app} crashed at ${c.time}: ${c.exception}${c.signal ? ` (${c.signal})` : ''}${c.reason ? ` — ${c.reason.slice(0, 300)}` : ''}${c.frames[0] ? `; at ${c.frames[0]}` : ''}`,
});
