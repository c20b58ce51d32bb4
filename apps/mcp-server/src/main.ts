import { parseArgs } from 'node:util';
import { DEFAULT_MCP_PORT, startMcpHttpServer, type McpHttpServer } from '@apex/mcp';
import { createRuntime, mcpToolsets } from '@apex/runtime';
import { assertSafeBind } from '@apex/serve-security';

const USAGE =
  'Usage: mcp-server [--port N] [--host H] [--config FILE] [--toolsets a,b]   (env: APEX_TOKEN, APEX_ALLOWED_ORIGINS, APEX_CONFIG, APEX_TOOLSETS)';

/** The MCP Streamable HTTP server (`nx serve mcp-server`): loopback by default, bearer auth with APEX_TOKEN. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, config: { type: 'string' }, toolsets: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = values.port === undefined ? DEFAULT_MCP_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be an integer 0–65535, got "${values.port}".`);
  const token = process.env.APEX_TOKEN || undefined;
  const allowedOrigins = (process.env.APEX_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);

  assertSafeBind(values.host ?? '127.0.0.1', token);
  // A bad --toolsets / APEX_TOOLSETS stops the start before any device boots.
  mcpToolsets({ flag: values.toolsets, env: process.env });

  const runtime = await createRuntime({ configPath: values.config });
  let server: McpHttpServer;
  try {
    const toolsets = mcpToolsets({ flag: values.toolsets, env: process.env, config: runtime.config });
    server = await startMcpHttpServer(runtime, { port, host: values.host, token, allowedOrigins, logger: runtime.logger, toolsets });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  runtime.logger.info({ url: server.url, auth: token ? 'bearer' : 'none', devices: runtime.devices.map((d) => d.id) }, 'mcp-server: listening');
  process.stdout.write(`Apex MCP (Streamable HTTP) at ${server.url}${token ? ' (bearer token required)' : ''}\n`);

  const stop = async () => {
    await server.close();
    await runtime.close();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp-server: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exitCode = 1;
});
