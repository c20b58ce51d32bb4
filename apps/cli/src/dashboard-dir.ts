import { resolve } from 'node:path';

/**
 * Where `apex serve` finds the built dashboard (the one place that knows): in the monorepo, the dashboard
 * project's Vite output, `apps/dashboard/dist`. The REST server is handed this directory; when it holds no
 * build the server says how to make one.
 */
export function dashboardDirectory(): string {
  return resolve(__dirname, '..', '..', 'dashboard', 'dist');
}
