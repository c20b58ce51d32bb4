import { resolve } from 'node:path';
import { isDashboardBuilt } from '@apex/rest';

/**
 * Where `apex serve` finds the built dashboard (the one place that knows). In the installed package the bundle
 * runs from `<package>/dist/cli` and the dashboard ships as `<package>/dashboard`; in the monorepo this module
 * runs from `apps/cli/src`, where the same `../../dashboard` is the page's Vite *source* folder (never served)
 * and the build is `apps/dashboard/dist`. The REST server is handed this directory; when it holds no build the
 * server says how to make one.
 */
export function dashboardDirectory(): string {
  const packaged = resolve(__dirname, '..', '..', 'dashboard');
  if (isDashboardBuilt(packaged)) return packaged;
  return resolve(packaged, 'dist');
}
