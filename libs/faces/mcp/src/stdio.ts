import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { OperationContext } from '@apex/operations';
import { createMcpServer, type McpServerOptions } from './server';

export interface StdioServerOptions extends McpServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

export interface StdioServerHandle {
  server: Server;
  /** Settles when the client goes away (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves MCP over stdin/stdout. Nothing else may write to stdout while it runs: log to stderr. */
export async function runStdioServer<Ctx extends OperationContext>(ctx: Ctx, options: StdioServerOptions = {}): Promise<StdioServerHandle> {
  const stdin = options.stdin ?? process.stdin;
  const server = createMcpServer(ctx, options);
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // The SDK transport does not notice the client going away: end the session when stdin does.
  const onEnd = () => void server.close();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  return {
    server,
    closed,
    close: async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await server.close();
    },
  };
}
