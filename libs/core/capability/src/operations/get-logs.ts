import { z } from 'zod';
import { LOG_LEVELS, type LogEntry } from '@apex/port';
import { readLogs } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { clip, LogWindow, redactTexts, type ShownLogEntry } from '../evidence/log-window';
import { sinceField, sinceInstant } from '../evidence/since';
import { DEFAULT_LOG_ENTRIES, MAX_LOG_BYTES, MAX_LOG_ENTRIES, MAX_LOG_GREP_LENGTH, MAX_LOG_LINES_SCANNED, MAX_LOG_MESSAGE_CHARS } from '../limits';
import { appIdValue, deviceField } from '../schemas';

const levelRank = (level: string): number => LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);

export const getLogsOperation = defineOperation({
  name: 'get_logs',
  title: 'Get device log',
  description: `The device log, newest last: at most \`limit\` lines and ${MAX_LOG_BYTES / 1024} KB (\`omitted\`: older matches left out). Filters: \`app\`, minimum \`level\`, \`grep\` (plain text, any case). Typed text is redacted.`,
  input: z.strictObject({
    device: deviceField,
    since: sinceField,
    app: appIdValue.optional(),
    level: z.enum(LOG_LEVELS).optional().describe('this level or more severe'),
    grep: z.string().min(1).max(MAX_LOG_GREP_LENGTH).optional(),
    limit: z.number().int().min(1).max(MAX_LOG_ENTRIES).default(DEFAULT_LOG_ENTRIES),
  }),
  output: z.object({
    entries: z.array(
      z.object({
        time: z.string(),
        level: z.enum(LOG_LEVELS),
        process: z.string(),
        pid: z.number().optional(),
        app: z.string().optional(),
        message: z.string(),
      }),
    ),
    omitted: z.number(),
    /** The instant read from, when one was asked for. */
    since: z.string().optional(),
    /** False when the device kept sending past what one read takes: the newest lines may be missing. */
    complete: z.boolean(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'evidence',
  handler: async (ctx, { device, since, app, level, grep, limit }) => {
    const sinceMs = sinceInstant(ctx.hub, device, since);
    const secrets = ctx.hub.typedTexts(device);
    const needle = grep?.toLowerCase();
    const minRank = level === undefined ? 0 : levelRank(level);
    const window = new LogWindow(limit, MAX_LOG_BYTES);
    let scanned = 0;
    const keep = (entry: LogEntry): void => {
      if (sinceMs !== undefined && entry.time < sinceMs) return;
      if (levelRank(entry.level) < minRank) return;
      if (app !== undefined && entry.app !== app && entry.process !== app) return;
      const message = redactTexts(entry.message, secrets);
      if (needle !== undefined && !`${entry.process} ${message}`.toLowerCase().includes(needle)) return;
      const shown: ShownLogEntry = { time: new Date(entry.time).toISOString(), level: entry.level, process: clip(entry.process, 200), message: clip(message, MAX_LOG_MESSAGE_CHARS) };
      if (entry.pid !== undefined) shown.pid = entry.pid;
      if (entry.app !== undefined) shown.app = entry.app;
      window.add(shown);
    };
    await readLogs(ctx.hub, device, { sinceMs, app, minLevel: level }, (entry) => {
      keep(entry);
      scanned += 1;
      return scanned < MAX_LOG_LINES_SCANNED;
    });
    return {
      entries: window.entries(),
      omitted: window.omitted,
      ...(sinceMs === undefined ? {} : { since: new Date(sinceMs).toISOString() }),
      complete: scanned < MAX_LOG_LINES_SCANNED,
    };
  },
  summarize: ({ entries, omitted, complete }) =>
    `${entries.length} log line(s)${omitted ? `, ${omitted} older left out` : ''}${complete ? '' : ' (the device kept sending; newer lines may be missing)'}${entries.length ? `; last: ${entries[entries.length - 1]?.message.slice(0, 200)}` : ''}`,
});
