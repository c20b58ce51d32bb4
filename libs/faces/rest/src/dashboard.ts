import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { Request, Response } from 'express';
import { extname, join, resolve, sep } from 'node:path';
import { HttpProblem } from './problem';

/**
 * The dashboard's static files: `/` is its index.html, everything else under `DASHBOARD_PREFIX` is a file of
 * the directory the app hands the server (a lib never knows where an app is built). The files are public (no
 * secret in them; every API call they make carries the token), so they are served before the token check.
 */
export const DASHBOARD_PREFIX = '/ui/';

/** No inline script or style, nothing from another origin, frames only as blob/data images, videos as blobs (fetched with the token). */
export const DASHBOARD_CSP =
  "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; style-src 'self'; script-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const SECURITY_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** What `/` answers when the directory holds no built page: how to build it. */
export function notBuiltPage(dir: string | undefined): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Apex dashboard not built</title></head><body>',
    '<h1>The Apex dashboard is not built</h1>',
    `<p>No built page was found${dir ? ` in <code>${escapeHtml(dir)}</code>` : ''}. Build it with`,
    '<code>npx nx run dashboard:build</code> (<code>npm start</code> builds it too) and reload this page.</p>',
    '<p>The REST API is served as usual: see <a href="/docs">/docs</a>.</p>',
    '</body></html>',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Files that only a source tree has: a folder with one of them is never served, even with an index.html. */
const SOURCE_TREE_MARKERS = ['package.json', 'vite.config.mjs', 'vite.config.js', 'vite.config.ts', 'vite.config.mts', 'vite.config.cjs', 'tsconfig.json'];
/** A page that loads its scripts from `src/` (`./src/main.tsx`, `/src/…`) is the source page, not a build. */
const SOURCE_SCRIPT = /\bsrc\s*=\s*["'](?:\.?\/)?src\//i;

/**
 * True when `dir` holds a built dashboard: an index.html that loads no script from `src/`, in a folder with no
 * package.json, tsconfig or Vite config. A source tree (the Vite project itself) is never a build: serving it
 * would show a blank page and publish its sources.
 */
export function isDashboardBuilt(dir: string | undefined): dir is string {
  if (!dir) return false;
  try {
    if (!statSync(join(dir, 'index.html')).isFile()) return false;
    if (SOURCE_TREE_MARKERS.some((name) => existsSync(join(dir, name)))) return false;
    return !SOURCE_SCRIPT.test(readFileSync(join(dir, 'index.html'), 'utf8'));
  } catch {
    return false;
  }
}

export interface DashboardFiles {
  /** Answers `GET|HEAD /` and `GET|HEAD /ui/...`; returns false for any other request. */
  handle(req: Request, res: Response, pathname: string): Promise<boolean>;
}

function notFound(pathname: string): HttpProblem {
  return new HttpProblem('route_not_found', `No dashboard file at ${pathname}.`);
}

/**
 * The file under `root` that `relative` (URL-decoded) names, or undefined when it names none: no `..` or
 * symlink leads out of `root`, no NUL or backslash gets in, directories are not files.
 */
export async function resolveDashboardFile(root: string, relative: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded === '' || /[\0\\]/.test(decoded)) return undefined;
  const candidate = resolve(root, `.${sep}${decoded}`);
  if (!candidate.startsWith(root + sep)) return undefined;
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

export function createDashboardFiles(dir: string | undefined): DashboardFiles {
  // The root's own real path, so that the prefix check compares like with like; looked for until it is
  // built (a build while the server runs is picked up).
  let builtRoot: string | undefined;
  const currentRoot = () => (builtRoot ??= isDashboardBuilt(dir) ? realpathSync(resolve(dir)) : undefined);

  /** Express sends the file (HEAD without its body); the headers are ours: no ETag, no ranges, our cache rules. */
  function send(res: Response, file: string, pathname: string, immutable: boolean): Promise<void> {
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      // Vite names assets by their content hash; the page itself is re-checked on every load.
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return new Promise((resolve, reject) => {
      res.sendFile(file, { dotfiles: 'allow', etag: false, lastModified: false, cacheControl: false, acceptRanges: false }, (error) =>
        error && !res.headersSent ? reject(notFound(pathname)) : resolve(),
      );
    });
  }

  return {
    async handle(req, res, pathname) {
      const method = req.method ?? 'GET';
      if (method !== 'GET' && method !== 'HEAD') return false;
      if (pathname !== '/' && !pathname.startsWith(DASHBOARD_PREFIX)) return false;
      const root = currentRoot();
      if (pathname === '/') {
        if (!root) {
          const body = notBuiltPage(dir);
          res.writeHead(200, {
            ...SECURITY_HEADERS,
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Length': Buffer.byteLength(body),
            'Cache-Control': 'no-cache',
          });
          res.end(method === 'HEAD' ? undefined : body);
          return true;
        }
        await send(res, join(root, 'index.html'), pathname, false);
        return true;
      }
      const file = root ? await resolveDashboardFile(root, pathname.slice(DASHBOARD_PREFIX.length)) : undefined;
      if (!root || !file) throw notFound(pathname);
      await send(res, file, pathname, file.startsWith(join(root, 'assets') + sep));
      return true;
    },
  };
}
