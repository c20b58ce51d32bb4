import { runStdioServer } from '@apex/mcp';
import { createRuntime } from '@apex/runtime';
import type { CommandImpl } from '../cli';
import { listenForStopSignals } from '../shutdown';
import { checkToolsetsOption, TOOLSETS_OPTION, toolsetsOf } from './toolsets-option';

/** How long tool calls in flight may take to finish after a stop signal. */
const DRAIN_MS = 10_000;

/** Longest wait for a clean shutdown before the process exits anyway (an MCP client is waiting on us). */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * `apex mcp`: the MCP server over stdio — the command to put in an MCP client's configuration. Stdout carries
 * the protocol only (logs go to stderr). Without a configuration it controls the embedded virtual iPhone and Android phone.
 * It stops when the client closes stdin, or on SIGINT/SIGTERM: then it reads no more requests, lets those in
 * flight finish (≤ 10 s), ends running tasks at their step boundary (`failed`, `interrupted`) and releases the
 * devices; a second signal exits at once (130 / 143).
 */
export const mcpCommand: CommandImpl = {
  options: { config: { type: 'string' }, ...TOOLSETS_OPTION, 'no-virtual': { type: 'boolean' } },
  async run(values) {
    const configPath = typeof values.config === 'string' ? values.config : undefined;
    checkToolsetsOption(values);
    const signals = listenForStopSignals((line) => process.stderr.write(`${line}\n`));
    const runtime = await createRuntime({
      configPath,
      discover: 'auto',
      virtual: values['no-virtual'] !== true,
      // Operations on the phones of other nodes (a cluster's listAll) go to them over their REST API; the REST
      // face is loaded only then.
      forwarder: (settings) => (require('@apex/rest') as typeof import('@apex/rest')).createRestForwarder(settings),
    });
    let toolsets;
    try {
      toolsets = toolsetsOf(values, runtime);
    } catch (error) {
      await runtime.close();
      throw error;
    }
    const handle = await runStdioServer(runtime, { logger: runtime.logger, toolsets });
    void signals.first.then((signal) => {
      runtime.logger.info({ signal }, 'mcp: stopping');
      return handle.close({ drainMs: DRAIN_MS });
    });
    runtime.logger.info({ devices: runtime.devices.map((d) => d.id), toolsets }, 'mcp: serving over stdio');

    await handle.closed;
    signals.stopping();
    setTimeout(() => process.exit(process.exitCode ?? 0), SHUTDOWN_GRACE_MS).unref();
    await runtime.close();
    process.stdin.destroy();
    return 0;
  },
};
