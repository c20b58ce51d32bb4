import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isDashboardBuilt } from '@apex/rest';
import { spawnNode } from '@apex/testing';
import { dashboardDirectory } from './dashboard-dir';

const REPO = path.resolve(__dirname, '../../..');

describe('the dashboard `apex serve` serves from a checkout', () => {
  it('is the Vite build (apps/dashboard/dist), never the source folder apps/dashboard', () => {
    expect(dashboardDirectory()).toBe(path.join(REPO, 'apps', 'dashboard', 'dist'));
    expect(isDashboardBuilt(path.join(REPO, 'apps', 'dashboard'))).toBe(false);
  });

  it('`apex serve` started the way `npx apex` starts it (the bin script) shows the build or the not-built page, and no source file', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'apex-cli-serve-'));
    const env: NodeJS.ProcessEnv = { ...process.env, APEX_DATA_DIR: dataDir };
    delete env.APEX_CONFIG;
    delete env.APEX_TOKEN;
    // node_modules/.bin/apex links to this bin script.
    const serve = spawnNode([path.join(REPO, 'node_modules', '.bin', 'apex'), 'serve', '--port', '0'], { env, cwd: REPO });
    try {
      const [, url] = await serve.waitForLine(/^Dashboard\s+(http:\/\/\S+)\/$/, { timeoutMs: 45_000 });
      await serve.waitForLine(/^MCP \(HTTP\)/, { timeoutMs: 45_000 });
      const page = await (await fetch(`${url}/`)).text();
      expect(page).not.toContain('src/main.tsx');
      if (isDashboardBuilt(path.join(REPO, 'apps', 'dashboard', 'dist'))) {
        expect(page).toMatch(/<script type="module"[^>]+src="[^"]*assets\//);
      } else {
        expect(page).toContain('npx nx run dashboard:build');
        expect(serve.stdout()).toMatch(/The dashboard is not built .*npx nx run dashboard:build/);
      }
      for (const file of ['/ui/package.json', '/ui/src/api.ts', '/ui/vite.config.mjs']) {
        const answer = await fetch(`${url}${file}`);
        expect([file, answer.status]).toEqual([file, 404]);
      }
    } finally {
      serve.kill('SIGTERM');
      await serve.waitForExit({ timeoutMs: 30_000 });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
