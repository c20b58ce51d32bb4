import { runStdioServer } from '@apex/mcp';
import { createRuntime } from '@apex/runtime';
import type { CommandImpl } from '../cli';

/** Longest wait for a clean shutdown before the process exits anyway (an MCP client is waiting on us). */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * `apex mcp`: the MCP server over stdio — the command to put in an MCP client's configuration. Stdout carries
 * the protocol only (logs go to stderr). Without a configuration it controls the embedded virtual iPhone.
 * It stops when the client closes stdin or on SIGINT/SIGTERM, closing the devices and the OCR workers.
 */
export const mcpCommand: CommandImpl = {
  options: { config: { type: 'string' } },
  async run(values) {
    const configPath = typeof values.config === 'string' ? values.config : undefined;
    const runtime = await createRuntime({ configPath });
    const handle = await runStdioServer(
      { hub: runtime.hub, perception: runtime.perception, tasks: runtime.tasks },
      { logger: runtime.logger },
    );
    const stop = (signal: NodeJS.Signals) => {
      runtime.logger.info({ signal }, 'mcp: stopping');
      void handle.close();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    runtime.logger.info({ devices: runtime.devices.map((d) => d.id) }, 'mcp: serving over stdio');

    await handle.closed;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    setTimeout(() => process.exit(process.exitCode ?? 0), SHUTDOWN_GRACE_MS).unref();
    await runtime.close();
    process.stdin.destroy();
    return 0;
  },
};
