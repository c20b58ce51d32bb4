import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** What must never reach a log: credentials and the text a user typed (it may be a password). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'token',
  'text',
  'input.text',
  'body.text',
  '*.text',
];

/** JSON logs on stderr (stdout stays free for a protocol), with secrets and typed text redacted. */
export function createRestLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      name: 'apex-rest',
      level: options.level ?? process.env.APEX_LOG_LEVEL ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
