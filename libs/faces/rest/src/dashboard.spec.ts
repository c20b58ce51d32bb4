import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { DASHBOARD_CSP, isDashboardBuilt, resolveDashboardFile } from './dashboard';
import { createRestLogger } from './logging';
import { createRestServer, type RestServer } from './server';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http, so that the request target reaches the server exactly as written (fetch would normalize `..`). */
function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the dashboard files served by the REST server', () => {
  const hub = new DeviceHub({ backgroundProbes: false });
  const perception = new Perception(hub);
  const base = mkdtempSync(join(tmpdir(), 'apex-dashboard-'));
  const dist = join(base, 'dist');
  const servers: RestServer[] = [];

  beforeAll(() => {
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Apex</title><script type="module" src="/ui/assets/app-1a2b.js"></script>');
    writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log("apex")');
    writeFileSync(join(dist, 'assets', 'app-1a2b.css'), 'body{}');
    writeFileSync(join(base, 'secret.txt'), 'outside the root');
    symlinkSync(join(base, 'secret.txt'), join(dist, 'assets', 'link.txt'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await perception.close();
    await hub.close();
    rmSync(base, { recursive: true, force: true });
  });

  async function start(options: { dashboardDir?: string; token?: string }): Promise<string> {
    const server = createRestServer({ hub, perception }, { ...options, logger: createRestLogger({ level: 'silent' }) });
    servers.push(server);
    return (await server.listen(0)).url;
  }

  it('answers / with index.html under a strict CSP, without a token even when one is set', async () => {
    const url = await start({ dashboardDir: dist, token: 's3cret' });
    const page = await get(url, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('/ui/assets/app-1a2b.js');
    expect(page.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // The API behind it still wants the token.
    expect((await get(url, '/devices')).status).toBe(401);
  });

  it('serves hashed assets with their type and a long cache, and HEAD without a body', async () => {
    const url = await start({ dashboardDir: dist });
    const js = await get(url, '/ui/assets/app-1a2b.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.body).toBe('console.log("apex")');
    expect((await get(url, '/ui/assets/app-1a2b.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    const head = await get(url, '/ui/assets/app-1a2b.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it.each([
    '/ui/assets/missing.js',
    '/ui/../secret.txt',
    '/ui/..%2Fsecret.txt',
    '/ui/assets/..%2F..%2Fsecret.txt',
    '/ui/%2e%2e/secret.txt',
    '/ui/assets/link.txt',
    '/ui/assets',
    '/ui/assets%5C..%5C..%5Csecret.txt',
    '/ui/%00',
    '/ui/%E0%A4%A',
  ])('answers %s with a 404 problem and never a file outside the directory', async (path) => {
    const url = await start({ dashboardDir: dist });
    const answer = await get(url, path);
    expect(answer.body).not.toContain('outside the root');
    // `/ui/../secret.txt` is normalized by the URL parser to `/secret.txt`: an API route that does not exist.
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('resolves only regular files inside the root', async () => {
    expect(await resolveDashboardFile(dist, 'assets/app-1a2b.js')).toBe(join(dist, 'assets', 'app-1a2b.js'));
    expect(await resolveDashboardFile(dist, '../secret.txt')).toBeUndefined();
    expect(await resolveDashboardFile(dist, '/etc/passwd')).toBeUndefined();
    expect(await resolveDashboardFile(dist, 'assets/link.txt')).toBeUndefined();
    expect(await resolveDashboardFile(dist, 'assets')).toBeUndefined();
  });

  it('says how to build the page when the directory holds none, and still serves the API', async () => {
    const url = await start({ dashboardDir: join(base, 'not-built') });
    const page = await get(url, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('npx nx run dashboard:build');
    expect(page.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect((await get(url, '/ui/assets/app-1a2b.js')).status).toBe(404);
    expect((await get(url, '/devices')).status).toBe(200);
  });

  describe('a source tree (the Vite project, not a build)', () => {
    const source = join(base, 'source');
    const SOURCE_FILES = ['/ui/package.json', '/ui/src/api.ts', '/ui/vite.config.mjs', '/ui/index.html', '/ui/tsconfig.json'];

    beforeAll(() => {
      mkdirSync(join(source, 'src'), { recursive: true });
      writeFileSync(join(source, 'index.html'), '<!doctype html><div id="app"></div><script type="module" src="./src/main.tsx"></script>');
      writeFileSync(join(source, 'package.json'), '{"name":"@apex/dashboard"}');
      writeFileSync(join(source, 'vite.config.mjs'), 'export default {}');
      writeFileSync(join(source, 'tsconfig.json'), '{}');
      writeFileSync(join(source, 'src', 'api.ts'), 'export const sourceOnly = 1;');
    });

    it.each([
      ['a Vite project folder', () => source],
      ['the repository\'s own apps/dashboard', () => join(__dirname, '..', '..', '..', '..', 'apps', 'dashboard')],
    ])('is never served from %s: / is the not-built page and no source file is answered', async (_name, dir) => {
      const url = await start({ dashboardDir: dir(), token: 's3cret' });
      const page = await get(url, '/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('The Apex dashboard is not built');
      expect(page.body).toContain('npx nx run dashboard:build');
      expect(page.body).not.toContain('src/main.tsx');
      for (const path of SOURCE_FILES) {
        const answer = await get(url, path);
        expect([path, answer.status]).toEqual([path, 404]);
        expect(answer.body).not.toMatch(/sourceOnly|@apex\/dashboard|export default/);
      }
    });

    it('is recognised by its page loading ./src/ even without a package.json, and by a package.json beside a built page', () => {
      const pageOnly = join(base, 'page-only');
      mkdirSync(pageOnly, { recursive: true });
      writeFileSync(join(pageOnly, 'index.html'), '<script type="module" src="/src/main.tsx"></script>');
      expect(isDashboardBuilt(pageOnly)).toBe(false);
      const withPackage = join(base, 'with-package');
      mkdirSync(withPackage, { recursive: true });
      writeFileSync(join(withPackage, 'index.html'), '<script type="module" src="/ui/assets/app-1a2b.js"></script>');
      writeFileSync(join(withPackage, 'package.json'), '{}');
      expect(isDashboardBuilt(withPackage)).toBe(false);
      expect(isDashboardBuilt(dist)).toBe(true);
      expect(isDashboardBuilt(source)).toBe(false);
    });
  });

  it('keeps redirecting / to the API docs when no dashboard directory is given', async () => {
    const url = await start({});
    const answer = await get(url, '/');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/docs');
  });
});
