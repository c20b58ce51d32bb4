import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * JSON logs on stderr, never stdout (stdout belongs to the MCP stdio transport and to command output).
 * Tokens and typed text are redacted. `destination` replaces stderr (tests read what would be logged).
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.APEX_LOG_LEVEL ?? 'info',
      redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'text', '*.text'], censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}
