import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startStdioSession, type StdioSession } from '../mcp/stdio-client';

const ROOT = path.resolve(__dirname, '../../../..');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'apps/cli/package.json'), 'utf8')) as { version: string }).version;
// Packing, installing 180 packages and starting the server: a behaviour test, not a timed one.
const INSTALL_TIMEOUT = 600_000;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * better-sqlite3 installs through prebuild-install, which looks in npm's cache before downloading from GitHub
 * (unreachable here) and compiling (~100 s). The monorepo's `npm ci` already built the very same version for
 * this Node: put that build in prebuild-install's cache so the install runs its real script without compiling.
 */
function seedSqlitePrebuild(): void {
  const moduleDir = path.join(ROOT, 'node_modules/better-sqlite3');
  const util = require(path.join(ROOT, 'node_modules/prebuild-install/util.js')) as {
    getDownloadUrl(opts: object): string;
    cachedPrebuild(url: string): string;
  };
  const pkg = JSON.parse(readFileSync(path.join(moduleDir, 'package.json'), 'utf8')) as object;
  const url = util.getDownloadUrl({ pkg, platform: process.platform, arch: process.arch, runtime: 'node', libc: '', 'tag-prefix': 'v' });
  process.env.npm_config_cache = run('npm', ['config', 'get', 'cache'], ROOT).trim();
  const cached = util.cachedPrebuild(url);
  if (existsSync(cached) || !existsSync(path.join(moduleDir, 'build/Release/better_sqlite3.node'))) return;
  mkdirSync(path.dirname(cached), { recursive: true });
  run('tar', ['czf', cached, 'build/Release/better_sqlite3.node'], moduleDir);
}

/**
 * What `npm install -g <tgz>` lays out, offline: the package in `<prefix>/lib/node_modules`, its shrinkwrapped
 * dependencies from npm's cache, its bin linked into `<prefix>/bin`. (`npm install -g --offline <tgz>` itself
 * needs the registry's package documents, which `npm ci` never caches: npm ignores a local tarball's
 * shrinkwrap when it plans the tree.)
 */
function installOffline(tarball: string, prefix: string): string {
  const packageDir = path.join(prefix, 'lib/node_modules/apex-mobile');
  mkdirSync(packageDir, { recursive: true });
  run('tar', ['xzf', tarball, '-C', packageDir, '--strip-components=1'], ROOT);
  run('npm', ['ci', '--offline', '--omit=dev', '--no-audit', '--no-fund'], packageDir);
  const bin = (JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.apex;
  mkdirSync(path.join(prefix, 'bin'));
  symlinkSync(path.join(packageDir, bin), path.join(prefix, 'bin/apex'));
  return path.join(prefix, 'bin/apex');
}

describe('the installable package (apex-mobile)', () => {
  let prefix: string;
  let apex: string;
  let session: StdioSession | undefined;
  let previousCacheHome: string | undefined;

  beforeAll(() => {
    seedSqlitePrebuild();
    run('npx', ['nx', 'run', 'cli:pack', '--outputStyle=static'], ROOT);
    const tarball = path.join(ROOT, `dist/apps/apex-mobile-${VERSION}.tgz`);
    prefix = mkdtempSync(path.join(os.tmpdir(), 'apex-install-'));
    // Its code caches stay with the install, not in the home directory of whoever runs the tests.
    previousCacheHome = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = path.join(prefix, 'cache');
    apex = installOffline(tarball, prefix);
  }, INSTALL_TIMEOUT);

  afterAll(async () => {
    await session?.close();
    if (previousCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previousCacheHome;
    rmSync(prefix, { recursive: true, force: true });
  });

  it('holds no monorepo and no TypeScript: only the bundle and registry dependencies', () => {
    const installed = path.join(prefix, 'lib/node_modules/apex-mobile');
    expect(existsSync(path.join(installed, 'node_modules/@apex'))).toBe(false);
    expect(existsSync(path.join(installed, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(path.join(installed, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(path.join(installed, 'dashboard/index.html'))).toBe(true);
  });

  it('apex --version prints the package version', () => {
    expect(run(apex, ['--version'], prefix).trim()).toBe(VERSION);
  });

  it('apex mcp from the install lists the embedded phones and taps each', async () => {
    session = await startStdioSession([], apex);
    const devices = await session.call('list_devices');
    expect(devices.structuredContent).toEqual({
      devices: [
        { id: 'iphone-virtual', name: 'Virtual iPhone', platform: 'ios', state: 'online' },
        { id: 'android-virtual', name: 'Virtual Android', platform: 'android', state: 'online' },
      ],
    });
    const tap = await session.call('tap', { device: 'iphone-virtual', x: 100, y: 100 });
    expect(tap.isError).toBeFalsy();
    const androidTap = await session.call('tap', { device: 'android-virtual', x: 100, y: 100 });
    expect(androidTap.isError).toBeFalsy();
    const refused = await session.call('tap', { device: 'iphone-virtual', x: -5, y: 100 });
    expect(refused.isError).toBe(true);
    expect(session.transportErrors).toEqual([]);
  }, 120_000);

  it('apex mcp answers tools/list without loading the image, canvas, OCR, XML, SQLite or PostgreSQL packages, and bundles zod', async () => {
    // Every file Node loaded, written when the server exits (it exits when the client closes stdin).
    const recorder = path.join(prefix, 'record-loaded.js');
    const loaded = path.join(prefix, 'loaded.txt');
    writeFileSync(recorder, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loaded)}, Object.keys(require.cache).join('\\n')));\n`);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'APEX_CONFIG') env[key] = value;
    env.APEX_DATA_DIR = mkdtempSync(path.join(prefix, 'data-'));
    env.XDG_CACHE_HOME = mkdtempSync(path.join(prefix, 'cache-'));
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--require', recorder, apex, 'mcp'], env, stderr: 'ignore' });
    const client = new Client({ name: 'apex-integration', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    await client.close();
    for (let i = 0; i < 100 && !existsSync(loaded); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const files = readFileSync(loaded, 'utf8').split('\n');
    const packages = new Set(files.map((file) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]));
    for (const heavy of ['sharp', '@napi-rs/canvas', 'tesseract.js', 'fast-xml-parser', 'better-sqlite3', 'pg', 'zod', '@modelcontextprotocol/sdk', 'yaml', 'pino']) {
      expect({ heavy, loaded: packages.has(heavy) }).toEqual({ heavy, loaded: false });
    }
    expect(files).toContain(path.join(prefix, 'lib/node_modules/apex-mobile/dist/cli/apex.js')); // the recorder saw the bundle
    // The first start leaves V8's code cache of the bundle for the next, in the user's cache directory (at exit).
    const codeCaches = () => (existsSync(path.join(env.XDG_CACHE_HOME, 'apex')) ? readdirSync(path.join(env.XDG_CACHE_HOME, 'apex')) : []);
    for (let i = 0; i < 100 && !codeCaches().some((name) => name.endsWith('.v8')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(codeCaches().filter((name) => name.endsWith('.v8'))).toHaveLength(1);
  }, 120_000);
});
