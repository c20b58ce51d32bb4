import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateDir, writePrivateFile } from './private-files';
import { ScreenshotStore } from './screenshot-store';
import { DATABASE_FILE, SqliteTaskStore } from './sqlite-task-store';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the data directory is owner-only, whatever the umask', () => {
  let root: string;
  let umask: number;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'apex-modes-'));
    // The widest umask: every mode below is Apex's own, not the environment's.
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the data dir 0700 and tasks.db, its -wal and -shm 0600', () => {
    const dataDir = join(root, 'nested', 'data');
    const store = new SqliteTaskStore(dataDir);
    try {
      store.insert({ id: 't1', deviceId: 'd', goal: 'g', status: 'queued', planner: 'offline', maxSteps: 1, timeoutMs: 1_000, createdAt: 'now', steps: [] });
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(root, 'nested'))).toBe(0o700);
      for (const suffix of ['', '-wal', '-shm']) {
        const file = join(dataDir, `${DATABASE_FILE}${suffix}`);
        expect(existsSync(file)).toBe(true);
        expect([suffix, modeOf(file)]).toEqual([suffix, 0o600]);
      }
    } finally {
      store.close();
    }
  });

  it('tightens the files an older version left world-readable, but not a data dir the user made', () => {
    const dataDir = join(root, 'shared');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    for (const suffix of ['', '-wal', '-shm']) writeFileSync(join(dataDir, `${DATABASE_FILE}${suffix}`), '', { mode: 0o644 });
    const store = new SqliteTaskStore(dataDir);
    try {
      for (const suffix of ['', '-wal', '-shm']) expect([suffix, modeOf(join(dataDir, `${DATABASE_FILE}${suffix}`))]).toEqual([suffix, 0o600]);
    } finally {
      store.close();
    }
    expect(modeOf(dataDir)).toBe(0o755);
  });

  it('keeps step screenshots in 0700 folders as 0600 files, and tightens old ones', () => {
    const dir = join(root, 'screenshots');
    mkdirSync(join(dir, 'old-task'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'old-task', 'step-000.jpg'), 'x', { mode: 0o644 });
    const store = new ScreenshotStore(dir);
    store.save('task-1', 'step-001.jpg', Buffer.from('jpeg'));
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'task-1'))).toBe(0o700);
    expect(modeOf(store.pathOf('task-1', 'step-001.jpg'))).toBe(0o600);
    expect(modeOf(join(dir, 'old-task'))).toBe(0o700);
    expect(modeOf(join(dir, 'old-task', 'step-000.jpg'))).toBe(0o600);
  });

  it('writes a private file completely, replacing one that was there', () => {
    const file = join(root, 'f.bin');
    writeFileSync(file, 'a much longer old content', { mode: 0o666 });
    const data = Buffer.alloc(300_000, 7);
    writePrivateFile(file, data);
    expect(modeOf(file)).toBe(0o600);
    expect(statSync(file).size).toBe(data.length);
  });

  it('leaves an existing directory as it is', () => {
    chmodSync(root, 0o755);
    createPrivateDir(root);
    expect(modeOf(root)).toBe(0o755);
  });
});
