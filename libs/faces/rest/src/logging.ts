import pino, { type DestinationStream, type Logger } from 'pino';
import { LOG_REDACT_PATHS, REDACTED } from '@apex/capability';

export type { Logger } from 'pino';

/** What must never reach a log: credentials and secret input fields (the one list every face's logger uses). */
export const REDACTED_PATHS = LOG_REDACT_PATHS;

/** JSON logs on stderr (stdout stays free for a protocol), with secrets and typed text redacted. */
export function createRestLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      name: 'apex-rest',
      level: options.level ?? process.env.APEX_LOG_LEVEL ?? 'info',
      redact: { paths: [...REDACTED_PATHS], censor: REDACTED },
    },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
