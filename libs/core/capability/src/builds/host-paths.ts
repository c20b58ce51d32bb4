import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApexError, invalidArgument } from '@apex/errors';

/**
 * Files a client names on the Apex host (a build to install, a photo to add) are read only inside the allowed
 * roots (config `apps.allowedRoots`; default the working directory and the data directory). The check is on
 * the real path: a symlink that leads out of the roots is refused like a path that starts outside them.
 */

/** A refused path: `invalid_argument` naming the field and the roots. */
function refused(field: string, reason: string, roots: readonly string[]): ApexError {
  return invalidArgument(`The ${field} ${reason}.`, [{ path: field, message: reason }], `Give the path of a file inside ${roots.map((r) => `"${r}"`).join(' or ')}.`);
}

function inside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The resolved real path of `requested`, checked to lie inside one of `roots`. `..` segments are refused
 * outright (a path that needs them is not one a client should send).
 */
export async function resolveInsideRoots(requested: string, roots: readonly string[], field = 'path'): Promise<{ path: string; isDirectory: boolean; size: number }> {
  if (requested.split(/[\\/]+/).includes('..')) throw refused(field, 'must not contain ".." segments', roots);
  const absolute = path.resolve(requested);
  const realRoots = (await Promise.all(roots.map((root) => realpath(root).catch(() => undefined)))).filter((r): r is string => r !== undefined);
  // Refused before touching the file when even the path as written lies outside every root.
  if (!realRoots.some((root) => inside(absolute, root)) && !roots.some((root) => inside(absolute, path.resolve(root)))) {
    throw refused(field, 'is outside the directories Apex may read from', roots);
  }
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    throw refused(field, 'does not exist or cannot be read', roots);
  }
  if (!realRoots.some((root) => inside(real, root))) throw refused(field, 'is outside the directories Apex may read from', roots);
  const info = await stat(real);
  return { path: real, isDirectory: info.isDirectory(), size: info.size };
}
