import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The data directory holds what users typed and saw (tasks, screenshots) and which process owns which phone:
 * only its owner may read it. Modes are set explicitly, so the umask cannot widen (or narrow) them.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` and its missing parents owner-only. A directory that already exists keeps its mode: a data
 * directory the user chose may be one they share on purpose (an older ~/.apex: `chmod 700 ~/.apex`).
 */
export function createPrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  const target = resolve(dir);
  for (let created = target; ; created = dirname(created)) {
    chmodSync(created, PRIVATE_DIR_MODE);
    if (created === resolve(first) || created === dirname(created)) break;
  }
}

/** A directory that is Apex's alone (inside the data directory): created, or tightened, owner-only. */
export function ensureApexDir(dir: string): void {
  createPrivateDir(dir);
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** A file Apex wrote (maybe by an older version, with a wider mode) made owner-only. */
export function makeFilePrivate(file: string): void {
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Writes (or replaces) a file owner-only. */
export function writePrivateFile(file: string, data: Uint8Array): void {
  const fd = openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    let written = 0;
    while (written < data.length) written += writeSync(fd, data, written, data.length - written);
  } finally {
    closeSync(fd);
  }
}
