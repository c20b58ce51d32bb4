import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const LOADER = path.join(__dirname, 'compile-cache.ts');

/** A fresh Node process loads `file` through the loader (as the package's bin does) and says how it went. */
function load(file: string, cacheDir: string, env: Record<string, string> = {}): { cache: string; answer: number } {
  const script = `const { requireWithCompileCache } = require(${JSON.stringify(LOADER)});
const { exports, cache } = requireWithCompileCache(${JSON.stringify(file)}, { cacheDir: ${JSON.stringify(cacheDir)} });
process.stdout.write(JSON.stringify({ cache, answer: exports.answer(20) }));`;
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'NODE_DISABLE_COMPILE_CACHE') childEnv[key] = value;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { encoding: 'utf8', env: { ...childEnv, ...env } });
  return JSON.parse(out) as { cache: string; answer: number };
}

const caches = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.v8'));

describe("the bundle's code cache", () => {
  let dir: string;
  let bundle: string;
  let cacheDir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-compile-cache-'));
    bundle = path.join(dir, 'bundle.js');
    cacheDir = path.join(dir, 'cache');
    writeFileSync(bundle, "const path = require('node:path');\nexports.answer = (n) => n * 2 + path.sep.length + 1;\n");
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written by a first start (for this user only) and used by the next', () => {
    expect(load(bundle, cacheDir)).toEqual({ cache: 'written later', answer: 42 });
    expect(caches(cacheDir)).toHaveLength(1);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(cacheDir, caches(cacheDir)[0] as string)).mode & 0o777).toBe(0o600);
    expect(load(bundle, cacheDir)).toEqual({ cache: 'used', answer: 42 });
  });

  it('is made again for a changed bundle, and the old one removed', () => {
    load(bundle, cacheDir);
    const [old] = caches(cacheDir);
    writeFileSync(bundle, 'exports.answer = (n) => n + 1;\n');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    expect(load(bundle, cacheDir)).toEqual({ cache: 'written later', answer: 21 });
    expect(caches(cacheDir)).toHaveLength(1);
    expect(caches(cacheDir)).not.toContain(old);
    expect(load(bundle, cacheDir)).toEqual({ cache: 'used', answer: 21 });
  });

  it('a damaged cache only means a plain compile, then a good cache', () => {
    load(bundle, cacheDir);
    for (const name of caches(cacheDir)) writeFileSync(path.join(cacheDir, name), 'not a code cache');
    expect(load(bundle, cacheDir)).toEqual({ cache: 'written later', answer: 42 });
    expect(load(bundle, cacheDir)).toEqual({ cache: 'used', answer: 42 });
  });

  it('an unwritable cache directory only means a plain compile each time', () => {
    writeFileSync(cacheDir, 'a file where the directory would be');
    expect(load(bundle, cacheDir)).toEqual({ cache: 'written later', answer: 42 });
    expect(load(bundle, cacheDir)).toEqual({ cache: 'written later', answer: 42 });
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node’s own', () => {
    expect(load(bundle, cacheDir, { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ cache: 'off', answer: 42 });
    expect(() => readdirSync(cacheDir)).toThrow();
  });
});
