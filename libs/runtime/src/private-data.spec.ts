import { mkdtemp, rm, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { thrownBy } from '@apex/errors/testing';
import { parseConfig } from './config';
import { resolveLease } from '@apex/hub';
import { openDeviceLease } from './device-lock';

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('private data', () => {
  let root: string;
  let umask: number;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'apex-private-'));
    umask = process.umask(0);
  });
  afterEach(async () => {
    process.umask(umask);
    await rm(root, { recursive: true, force: true });
  });

  it('creates the data dir and its locks folder 0700 and a lock file 0600, whatever the umask', async () => {
    const dataDir = path.join(root, 'data');
    const lock = await openDeviceLease({ dataDir, deviceId: 'iphone-a', url: 'http://127.0.0.1:8100', lease: resolveLease() });
    try {
      expect(await modeOf(dataDir)).toBe(0o700);
      expect(await modeOf(path.dirname(lock.file))).toBe(0o700);
      expect(await modeOf(lock.file)).toBe(0o600);
    } finally {
      await lock.close();
    }
  });

  it('takes tasks.keepTypedText and tasks.maxQueuedPerDevice from the configuration, and checks them', () => {
    const device = { id: 'iphone-a', driver: 'wda', url: 'http://127.0.0.1:8100' };
    expect(parseConfig({ devices: [device], tasks: { keepTypedText: true, maxQueuedPerDevice: 5 } }).tasks).toEqual({ keepTypedText: true, maxQueuedPerDevice: 5 });
    const error = thrownBy(() => parseConfig({ devices: [device], tasks: { keepTypedText: 'yes', maxQueuedPerDevice: 0 } }));
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['tasks.keepTypedText', 'tasks.maxQueuedPerDevice']);
  });

  it('takes tasks.retention (age in days, count of finished tasks) and checks it', () => {
    const device = { id: 'iphone-a', driver: 'wda', url: 'http://127.0.0.1:8100' };
    expect(parseConfig({ devices: [device], tasks: { retention: { maxAgeDays: 7, maxFinished: 50 } } }).tasks).toEqual({ retention: { maxAgeDays: 7, maxFinished: 50 } });
    const error = thrownBy(() => parseConfig({ devices: [device], tasks: { retention: { maxAgeDays: 0, maxFinished: 0.5, keep: 'all' } } }));
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['tasks.retention.keep', 'tasks.retention.maxAgeDays', 'tasks.retention.maxFinished']);
  });
});
