/** What the MCP transports log through: a pino logger or anything with the same two methods. */
export interface McpLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  /** Each call's input, secret fields redacted (`loggableInput`). */
  debug?(object: object, message: string): void;
  /** pino's: whether a level is logged at all (an input is copied for the debug line only when it is). */
  isLevelEnabled?(level: string): boolean;
}
