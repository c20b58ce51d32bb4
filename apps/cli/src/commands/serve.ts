import { parsePortOption, serveUntilSignal } from '@apex/rest';
import { createRuntime } from '@apex/runtime';
import { UsageError, type CommandImpl } from '../cli';

/** `apex serve`: the REST API with MCP at /mcp, over the configured devices or the embedded virtual iPhone. */
export const serveCommand: CommandImpl = {
  options: { port: { type: 'string' }, host: { type: 'string' }, config: { type: 'string' } },
  async run(values) {
    const config = typeof values.config === 'string' ? values.config : undefined;
    let port: number;
    try {
      port = parsePortOption(typeof values.port === 'string' ? values.port : undefined);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    await serveUntilSignal({
      port,
      host: typeof values.host === 'string' ? values.host : undefined,
      token: process.env.APEX_TOKEN || undefined,
      openContext: async () => {
        const runtime = await createRuntime({ configPath: config });
        // The runtime is the operation context (hub + perception).
        return { ctx: runtime, close: () => runtime.close() };
      },
    });
    return 0;
  },
};
