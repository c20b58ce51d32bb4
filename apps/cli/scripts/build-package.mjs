#!/usr/bin/env node
// Builds the installable `apex-mobile` package: esbuild bundles the CLI and every @apex/* workspace library into
// dist/cli/apex.js (whitespace and syntax minified, names kept); third-party packages stay external and become
// dependencies at the root lock's exact version (native and heavy ones — sharp, canvas, SQLite, tesseract — load
// from node_modules as usual), except zod, the MCP SDK, what sits on zod, and pino (see apex-bundle.mjs, which the bench shares). Files the code
// reads from disk next to itself (the pixel worker, the dashboard build) are copied where the bundle finds them;
// the bin loads the bundle through compile-cache.js (V8's code cache).
// Usage: node apps/cli/scripts/build-package.mjs [--pack]
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apexBundleOptions } from './apex-bundle.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cliDir = join(root, 'apps', 'cli');
const outDir = join(root, 'dist', 'apps', 'cli-package');
const cliPackage = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

const dashboardDist = join(root, 'apps', 'dashboard', 'dist');
if (!existsSync(join(dashboardDist, 'index.html'))) {
  throw new Error(`no dashboard build in ${dashboardDist}: run nx run dashboard:build first`);
}

const thirdParty = new Set();

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, 'dist', 'cli'), { recursive: true });

/** One CommonJS file for Node 20 in dist/cli, with whatever it imports (unless `options` says otherwise). */
const bundle = (entry, name, options = {}) =>
  build({
    entryPoints: [entry],
    outfile: join(outDir, 'dist', 'cli', name),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    ...options,
  });

await bundle(join(cliDir, 'src', 'main.ts'), 'apex.js', apexBundleOptions({ onThirdParty: (name) => thirdParty.add(name) }));
// The pixel pool starts its worker from a plain-JS file next to itself (__dirname): next to the bundle here.
for (const file of ['pixel-worker.js', 'pixel-kernels.js']) {
  cpSync(join(root, 'libs', 'core', 'perception', 'src', 'workers', file), join(outDir, 'dist', 'cli', file));
}
// The flow YAML reader's worker thread, likewise, with the yaml package bundled into it (the package has no yaml).
await bundle(join(root, 'libs', 'core', 'tasks', 'src', 'flows', 'flow-yaml-worker.js'), 'flow-yaml-worker.js');
// The bin's loader, which keeps V8's code cache of the bundle (see compile-cache.ts): a file of its own, so the
// bundle it loads is compiled from the cache.
await bundle(join(cliDir, 'src', 'compile-cache.ts'), 'compile-cache.js');
cpSync(dashboardDist, join(outDir, 'dashboard'), { recursive: true });

function lockedVersion(name) {
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry?.version) throw new Error(`${name} is imported but not in package-lock.json`);
  return entry.version;
}
const dependencies = Object.fromEntries([...thirdParty].sort().map((name) => [name, lockedVersion(name)]));

/**
 * The root lock's subset this package's dependencies reach, as an npm-shrinkwrap.json: the install gets the
 * exact tree the monorepo is tested with, and every tarball is named by its resolved URL and integrity, so npm
 * serves it from its cache (`--offline` works after `npm ci`) and native packages install their prebuilt binaries.
 */
function shrinkwrap(pkg) {
  const packages = { '': { name: pkg.name, version: pkg.version, license: pkg.license, bin: pkg.bin, dependencies: pkg.dependencies } };
  /** Node's lookup, on lock paths: `<from>/node_modules/<name>`, then each ancestor's, then the top. */
  const locate = (from, name) => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!dir) return undefined;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut < 0 ? '' : dir.slice(0, cut);
    }
  };
  const visit = (from, names, optional) => {
    for (const name of names) {
      const path = locate(from, name);
      if (!path) {
        if (optional) continue;
        throw new Error(`${name} (needed by ${from || pkg.name}) is not in package-lock.json`);
      }
      if (packages[path]) continue;
      const entry = { ...lock.packages[path] };
      if (entry.devOptional) entry.optional = true;
      for (const flag of ['dev', 'devOptional', 'peer']) delete entry[flag];
      packages[path] = entry;
      const peers = Object.keys(entry.peerDependencies ?? {}).filter((p) => !entry.peerDependenciesMeta?.[p]?.optional);
      visit(path, [...Object.keys(entry.dependencies ?? {}), ...peers], false);
      visit(path, Object.keys(entry.optionalDependencies ?? {}), true);
    }
  };
  visit('', Object.keys(pkg.dependencies), false);
  return { name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages };
}

const packageJson = {
  name: 'apex-mobile',
  version: cliPackage.version,
  description: 'Apex: an MCP server and a REST API that let agents and people operate mobile phones (with an embedded virtual iPhone).',
  license: 'MIT',
  bin: { apex: 'bin/apex.js' },
  files: ['bin', 'dist', 'dashboard', 'README.md', 'LICENSE', 'server.json', 'npm-shrinkwrap.json'],
  engines: { node: '>=20' },
  dependencies,
  mcpName: JSON.parse(readFileSync(join(root, 'server.json'), 'utf8')).name,
};
writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
writeFileSync(join(outDir, 'npm-shrinkwrap.json'), `${JSON.stringify(shrinkwrap(packageJson), null, 2)}\n`);
mkdirSync(join(outDir, 'bin'));
writeFileSync(
  join(outDir, 'bin', 'apex.js'),
  "#!/usr/bin/env node\nconst { requireWithCompileCache } = require('../dist/cli/compile-cache.js');\n" +
    "requireWithCompileCache(require.resolve('../dist/cli/apex.js')).exports.runCli();\n",
  { mode: 0o755 },
);
for (const file of ['README.md', 'LICENSE', 'server.json']) {
  if (existsSync(join(root, file))) cpSync(join(root, file), join(outDir, file));
}

if (process.argv.includes('--pack')) {
  const output = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(root, 'dist', 'apps')], { cwd: outDir, encoding: 'utf8' });
  process.stdout.write(`${join(root, 'dist', 'apps', output.trim().split('\n').pop())}\n`);
} else {
  process.stdout.write(`${outDir}\n`);
}
