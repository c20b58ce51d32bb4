// How Apex's TypeScript is bundled for Node 20: the installable package (apps/cli/scripts/build-package.mjs) and
// the bench (tools/bench/scripts/bench.mjs) both use these options, so the bench measures the code the package runs.
// The bench imports it as `@apex/cli/bundle-options` (the cli package's one export).
import { builtinModules } from 'node:module';

/** `sharp/lib/x` → `sharp`, `@napi-rs/canvas` → `@napi-rs/canvas`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const builtins = new Set(builtinModules);
/**
 * Bundled (ESM builds, tree-shaken) rather than external, with whatever they import: pure JavaScript that
 * `apex mcp` evaluates before it can answer tools/list, and that costs far more CPU as hundreds of files through
 * Node's loader than inside one bundle (zod alone ~50 ms, the MCP SDK with ajv ~40 ms, yaml ~15 ms, pino and its
 * 28 files ~15 ms; pino's transports, which start workers from files, are never used). Everything that touches
 * zod schemas is here, so there is one zod.
 */
const BUNDLED = new Set(['zod', '@modelcontextprotocol/sdk', '@asteasolutions/zod-to-openapi', 'yaml', 'pino']);
const inNodeModules = (file) => file.split(/[\\/]/).includes('node_modules');

/** Every @apex/* library and the BUNDLED packages go into the bundle; other packages stay external (`onThirdParty` hears each). */
function externalThirdParty(onThirdParty) {
  return {
    name: 'external-third-party',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('node:') || builtins.has(args.path)) return { path: args.path, external: true };
        if (args.path.startsWith('@apex/')) return undefined; // bundled
        // A bundled package, or an import from inside one (only bundled packages' files reach esbuild).
        if (BUNDLED.has(packageName(args.path)) || inNodeModules(args.importer)) {
          if (args.kind !== 'require-call') return undefined;
          // `require()` would pick the package's CommonJS build: resolve it as an import, so each package is in the
          // bundle once (a second zod would be a second set of classes).
          const esm = await b.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, importer: args.importer });
          return esm.errors.length > 0 ? undefined : { path: esm.path };
        }
        onThirdParty?.(packageName(args.path));
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * esbuild options for one CommonJS file of Apex code: whitespace and syntax minified, names kept, a linked source
 * map; `plugins` run before the one that decides what is bundled.
 */
export function apexBundleOptions({ onThirdParty, plugins = [] } = {}) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    sourcemap: 'linked',
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [...plugins, externalThirdParty(onThirdParty)],
  };
}
