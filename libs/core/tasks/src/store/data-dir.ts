import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** Where a data directory may be named, strongest first after an explicit one. */
export interface DataDirSources {
  /** Given by the caller (a command-line flag, a test). */
  explicit?: string;
  /** The config file's `dataDir`. */
  configured?: string;
}

/**
 * The data directory (tasks, step screenshots, device locks), the one way every part of Apex finds it, as the
 * README documents: an explicit one, else `APEX_DATA_DIR` (blank counts as unset), else the config's
 * `dataDir`, else `~/.apex` — as an absolute path.
 */
export function resolveDataDir(sources: DataDirSources = {}, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['APEX_DATA_DIR']?.trim() || undefined;
  return resolve(sources.explicit ?? fromEnv ?? sources.configured ?? resolve(homedir(), '.apex'));
}
