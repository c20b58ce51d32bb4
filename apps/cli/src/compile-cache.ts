import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Script } from 'node:vm';

/**
 * The installed package's start-up: its bundle is one 3 MB file, and compiling it is a fifth of `apex mcp`'s
 * time to tools/list. V8 can keep what it compiled (a code cache) and start from that next time, as Node 22's
 * `module.enableCompileCache()` does for every module; on Node 20 this does it for the bundle. The cache is
 * written once per bundle and Node version, after the start-up has run (so it holds the functions a start
 * compiles, not only the top level), in the user's cache directory, and replaces that bundle's older caches.
 * Anything wrong with it — missing, stale, unreadable, unwritable, rejected by V8 — only means a plain compile.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as it does Node's own.
 */

/** How long after loading the cache is written, if the process is still running (else at exit). */
const WRITE_AFTER_MS = 2_000;

export interface CompileCacheOptions {
  /** Default `$XDG_CACHE_HOME/apex`, or `~/.cache/apex`. */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
}

/** How the last `requireWithCompileCache` went: what a test (and nothing else) looks at. */
export type CompileCacheUse = 'used' | 'written later' | 'off' | 'node';

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'apex');
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Loads the CommonJS file `file` as `require(file)` would, from V8's code cache when there is a good one.
 * Returns its exports and how the cache was used.
 */
export function requireWithCompileCache(file: string, options: CompileCacheOptions = {}): { exports: unknown; cache: CompileCacheUse } {
  const env = options.env ?? process.env;
  const cacheDir = options.cacheDir ?? defaultCacheDir(env);
  if (env.NODE_DISABLE_COMPILE_CACHE) return { exports: require(file), cache: 'off' };
  const nodeCache = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (nodeCache) {
    nodeCache(cacheDir);
    return { exports: require(file), cache: 'node' };
  }
  const source = readFileSync(file, 'utf8');
  const { size, mtimeMs } = statSync(file);
  // The bundle's path names its caches; its size and time and Node's version name this one (V8 itself only
  // checks the source's length and its own flags).
  const prefix = digest(file);
  const cacheFile = path.join(cacheDir, `${prefix}-${digest(`${process.version}|${process.arch}|${size}|${mtimeMs}`)}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const exports = runAsModule(script, file);
  if (cachedData && !script.cachedDataRejected) return { exports, cache: 'used' };
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeCache(cacheDir, prefix, cacheFile, script.createCachedData());
  };
  setTimeout(write, WRITE_AFTER_MS).unref();
  process.once('exit', write);
  return { exports, cache: 'written later' };
}

/** Runs the compiled wrapper as Node's loader runs a CommonJS file, registered in `require.cache`. */
function runAsModule(script: Script, file: string): unknown {
  const NodeModule = Module as unknown as {
    new (id: string, parent?: unknown): NodeJS.Module;
    _cache: Record<string, NodeJS.Module>;
    _nodeModulePaths(dir: string): string[];
  };
  const mod = new NodeModule(file, module);
  mod.filename = file;
  mod.paths = NodeModule._nodeModulePaths(path.dirname(file));
  NodeModule._cache[file] = mod;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}

/** Written whole (a temporary file renamed), readable by this user only; the bundle's older caches removed. */
function writeCache(cacheDir: string, prefix: string, cacheFile: string, data: Buffer): void {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const temporary = `${cacheFile}.${process.pid}`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, cacheFile);
    for (const name of readdirSync(cacheDir)) {
      if (name.startsWith(`${prefix}-`) && name.endsWith('.v8') && path.join(cacheDir, name) !== cacheFile) {
        rmSync(path.join(cacheDir, name), { force: true });
      }
    }
  } catch {
    // No cache this time: the next start compiles again.
  }
}
