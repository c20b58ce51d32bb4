import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Where `apex serve` finds the built dashboard (the one place that knows). In the installed package the bundle
 * runs from `<package>/dist/cli` and the dashboard ships as `<package>/dashboard`; in the monorepo this module
 * runs from `apps/cli/src` and the dashboard is the Vite output `apps/dashboard/dist`. The REST server is handed
 * this directory; when it holds no build the server says how to make one.
 */
export function dashboardDirectory(): string {
  const packaged = resolve(__dirname, '..', '..', 'dashboard');
  if (existsSync(resolve(packaged, 'index.html'))) return packaged;
  return resolve(__dirname, '..', '..', 'dashboard', 'dist');
}
