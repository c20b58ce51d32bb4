import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * Browser kit for the dashboard's tests and benchmark: a fresh build of the page and headless Chromium from npm
 * (its own entry, `@apex/testing/browser`, so that nothing else loads playwright).
 */

// The workspace root (this file is libs/testing/src/browser.ts).
const ROOT = resolve(__dirname, '../../..');

/**
 * Builds the dashboard (Vite, as `nx run dashboard:build` does) into a fresh directory, so that the test
 * serves exactly the sources it runs with.
 */
export function buildDashboard(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'apex-dashboard-dist-'));
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(ROOT, 'apps/dashboard/vite.config.mjs'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return outDir;
}

/**
 * Headless Chromium from npm (@sparticuz/chromium, an ES module Jest cannot load: asked in a child process).
 */
export async function launchChromium(): Promise<Browser> {
  const script = "import('@sparticuz/chromium').then(async ({ default: c }) => process.stdout.write(JSON.stringify({ path: await c.executablePath(), args: c.args })))";
  const { path, args } = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as { path: string; args: string[] };
  return chromium.launch({ executablePath: path, args, headless: true });
}
