import { createRestForwarder, parsePortOption, serveUntilSignal } from '@apex/rest';
import { createRuntime } from '@apex/runtime';
import { UsageError, type CommandImpl } from '../cli';
import { dashboardDirectory } from '../dashboard-dir';
import { listenForStopSignals } from '../shutdown';
import { checkToolsetsOption, TOOLSETS_OPTION, toolsetsOf } from './toolsets-option';

/**
 * `apex serve`: the dashboard at /, the REST API with MCP at /mcp, over the configured devices or the embedded virtual phones (iPhone and Android).
 * On SIGINT/SIGTERM it stops accepting, lets requests in flight finish (≤ 10 s), ends running tasks at their
 * step boundary (`failed`, `interrupted`), releases the devices and exits 0; a second signal exits at once
 * (130 / 143).
 */
export const serveCommand: CommandImpl = {
  options: { port: { type: 'string' }, host: { type: 'string' }, config: { type: 'string' }, ...TOOLSETS_OPTION, 'no-virtual': { type: 'boolean' } },
  async run(values) {
    checkToolsetsOption(values);
    const config = typeof values.config === 'string' ? values.config : undefined;
    let port: number;
    try {
      port = parsePortOption(typeof values.port === 'string' ? values.port : undefined);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const signals = listenForStopSignals((line) => process.stderr.write(`${line}\n`));
    await serveUntilSignal({
      stopSignal: signals.first,
      port,
      host: typeof values.host === 'string' ? values.host : undefined,
      token: process.env.APEX_TOKEN || undefined,
      dashboardDir: dashboardDirectory(),
      openContext: async () => {
        // Operations on the phones of other nodes (a cluster's listAll) go to them over their REST API.
        const runtime = await createRuntime({ configPath: config, discover: 'auto', virtual: values['no-virtual'] !== true, forwarder: createRestForwarder });
        // The runtime is the operation context (hub + perception); /mcp serves the chosen toolsets, REST all.
        return { ctx: runtime, close: () => runtime.close(), mcpToolsets: toolsetsOf(values, runtime), onListening: (url) => runtime.advertise(url) };
      },
    });
    return 0;
  },
};
