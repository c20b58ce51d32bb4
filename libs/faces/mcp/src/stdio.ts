import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { OperationContext } from '@apex/capability';
import { createMcpServer, type McpServerOptions } from './server';

export interface StdioServerOptions extends McpServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

export interface StdioServerHandle {
  server: Server;
  /** Settles when the client goes away (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  /**
   * Stops reading requests; those being answered get up to `drainMs` to finish (default 0), then the session
   * ends.
   */
  close(options?: { drainMs?: number }): Promise<void>;
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
  const answering = trackRequests(transport);
  return {
    server,
    closed,
    close: async ({ drainMs = 0 } = {}) => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      stdin.pause();
      await answering.settled(drainMs);
      await server.close();
    },
  };
}

/** The requests read but not yet answered, so that a shutdown can wait for them (wraps the connected transport). */
function trackRequests(transport: StdioServerTransport): { settled(timeoutMs: number): Promise<void> } {
  const pending = new Set<RequestId>();
  const idle: Array<() => void> = [];
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message)) pending.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined && pending.delete(message.id) && pending.size === 0) {
      for (const wake of idle.splice(0)) wake();
    }
  };
  return {
    settled(timeoutMs) {
      if (pending.size === 0 || timeoutMs <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
