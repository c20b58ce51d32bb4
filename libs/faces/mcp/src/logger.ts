import pino from 'pino';

/** What the MCP transports log through: a pino logger or anything with the same two methods. */
export interface McpLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** Pino JSON on stderr (fd 2): in stdio mode stdout carries the protocol and nothing else. */
export function createStderrLogger(name = 'apex-mcp', level = process.env.APEX_LOG_LEVEL ?? 'info'): pino.Logger {
  return pino({ name, level, redact: ['req.headers.authorization', 'arguments.text'] }, pino.destination(2));
}
