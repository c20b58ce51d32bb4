import pino, { type DestinationStream, type Logger } from 'pino';
import { LOG_REDACT_PATHS, REDACTED } from '@apex/capability';

export type { Logger } from 'pino';

/**
 * JSON logs on stderr, never stdout (stdout belongs to the MCP stdio transport and to command output).
 * Credentials and secret input fields are redacted (the list every face's logger uses). `destination` replaces stderr (tests read what would be logged).
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.APEX_LOG_LEVEL ?? 'info',
      redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED },
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}
