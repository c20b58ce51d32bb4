import { parseArgs } from 'node:util';
import { createRestForwarder, parsePortOption, serveUntilSignal } from '@apex/rest';
import { createRuntime } from '@apex/runtime';

const USAGE = 'Usage: rest-api [--port N] [--host H] [--config FILE]';

/** `nx serve rest-api`: the REST API (with MCP at /mcp) over the runtime built from --config or APEX_CONFIG. */
async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, host: { type: 'string' }, config: { type: 'string' } },
    strict: true,
  });
  await serveUntilSignal({
    port: parsePortOption(values.port),
    host: values.host,
    token: process.env.APEX_TOKEN || undefined,
    openContext: async () => {
      const runtime = await createRuntime({ configPath: values.config, forwarder: createRestForwarder });
      // The runtime is the operation context (hub + perception).
      return { ctx: runtime, close: () => runtime.close(), onListening: (url) => runtime.advertise(url) };
    },
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`rest-api: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exitCode = 1;
});
