import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApexError, LEAKY_WORDS } from '@apex/errors';
import { adbKeyDir, createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import { createVirtualAndroid, startAdbd, type Adbd } from '@apex/virtual-device';
import { freePort } from '@apex/virtual-device/testing';
import { eventually } from '@apex/testing';
import { ScriptedAndroid } from '../support/scripted-android';

/**
 * driver-adb straight to a phone's adbd over real TCP (no adb server, no adb binary): the virtual adbd, with and
 * without RSA authentication. One connection carries every call; a call's signal closes its stream only.
 */

async function failure(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

const live = (): AbortSignal => AbortSignal.timeout(20_000);
const never = new AbortController().signal;

describe('driver-adb direct to the virtual Android phone’s adbd (no adb server)', () => {
  let adbd: Adbd;
  let driver: AdbDriver;
  const android = createVirtualAndroid();

  beforeAll(async () => {
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1', extraFeatures: ['cmd'] });
    driver = createAdbDriver({ deviceId: 'pixel', device: { host: adbd.serial } });
  });

  afterAll(async () => {
    await driver?.close(never);
    await adbd?.close();
  });

  it('reads status, screenshot and tree, taps and launches, all over one connection', async () => {
    const status = await driver.status(live());
    expect(status).toMatchObject({ platform: 'android', osVersion: '14', model: `Google ${android.phone.profile.model}`, screen: { scale: 2.625 } });
    const shot = await driver.screenshot(live());
    expect(shot.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(shot).toMatchObject({ width: 1080, height: 2400 });
    await driver.launchApp('com.android.settings', live());
    expect(await driver.foregroundApp(live())).toEqual({ appId: 'com.android.settings' });
    const tree = await driver.uiTree(live());
    expect(JSON.stringify(tree)).toMatch(/Network & internet/);
    await driver.pressButton('home', live());
    expect(await driver.foregroundApp(live())).not.toEqual({ appId: 'com.android.settings' });
    expect(adbd.connectionCount()).toBe(1);
  });

  it('runs calls side by side as streams of the one connection', async () => {
    const results = await Promise.all([driver.screen(live()), driver.foregroundApp(live()), driver.screenshot(live()), driver.status(live())]);
    expect(results[0]).toEqual(results[3].screen);
    expect(adbd.connectionCount()).toBe(1);
  });

  it('reconnects on the next call after the phone dropped the connection', async () => {
    await adbd.close();
    expect((await failure(driver.status(live()))).code).toBe('device_offline');
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1', port: adbd.port, extraFeatures: ['cmd'] });
    expect((await driver.status(live())).platform).toBe('android');
  });
});

describe('driver-adb direct: streams end with their signal', () => {
  const phone = new ScriptedAndroid();
  let adbd: Adbd;
  let driver: AdbDriver;

  beforeAll(async () => {
    adbd = await startAdbd({ backend: phone.backend(), host: '127.0.0.1' });
    driver = createAdbDriver({ deviceId: 'pixel', device: { host: adbd.serial } });
  });

  afterAll(async () => {
    await driver?.close(never);
    await adbd?.close();
  });

  it('a hanging command: device_timeout, its session on the phone aborted, the connection kept for the next call', async () => {
    await driver.tap({ x: 1, y: 1 }, live()); // learns the density first
    phone.hangEverything = true;
    const controller = new AbortController();
    const pending = failure(driver.tap({ x: 10, y: 10 }, controller.signal));
    await eventually(() => phone.hanging.size === 1, { timeoutMs: 10_000, what: 'the tap to hang on the device' });
    controller.abort();
    expect((await pending).code).toBe('device_timeout');
    await eventually(() => phone.aborted.includes('input tap 26 26'), { timeoutMs: 10_000, what: 'the phone to see its stream closed' });
    phone.hangEverything = false;
    await driver.tap({ x: 10, y: 10 }, live());
    expect(adbd.connectionCount()).toBe(1);
  });

  it('nothing listening: device_offline naming the address, in Apex words', async () => {
    const port = await freePort();
    const gone = createAdbDriver({ deviceId: 'gone', device: { host: `127.0.0.1:${port}` } });
    const error = await failure(gone.status(live()));
    expect(error).toMatchObject({ code: 'device_offline', message: `Device gone cannot be reached: nothing answers at 127.0.0.1:${port}.` });
    expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(LEAKY_WORDS);
  });

  it('a device that accepts TCP but never answers the handshake: the call ends with its signal', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const mute = createAdbDriver({ deviceId: 'mute', device: { host: `127.0.0.1:${port}` } });
    expect((await failure(mute.status(AbortSignal.timeout(300)))).code).toBe('device_timeout');
    await mute.close(never);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});

/** A CNXN as a phone sends it (AOSP protocol.txt): version 0x01000001, max payload 1 MiB, a device banner. */
function cnxnPacket(): Buffer {
  const payload = Buffer.from('device::ro.product.model=Mute;features=shell_v2', 'utf8');
  const header = Buffer.alloc(24);
  const command = 0x4e584e43;
  header.writeUInt32LE(command, 0);
  header.writeUInt32LE(0x01000001, 4);
  header.writeUInt32LE(1024 * 1024, 8);
  header.writeUInt32LE(payload.length, 12);
  header.writeUInt32LE(0, 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return Buffer.concat([header, payload]);
}

describe('driver-adb direct: a connection that stops answering', () => {
  it('an OPEN left unanswered for a whole call: device_timeout, and the next call connects again', async () => {
    const sockets: Socket[] = [];
    // Answers the handshake, then never a stream request: a phone that left the network without closing.
    const half: Server = createServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => socket.write(cnxnPacket()));
    });
    await new Promise<void>((resolve) => half.listen(0, '127.0.0.1', resolve));
    const port = (half.address() as { port: number }).port;
    // An OPEN unanswered for longer than a connect may take (connectMs) marks the connection dead.
    const driver = createAdbDriver({ deviceId: 'half', device: { host: `127.0.0.1:${port}` }, connectTimeoutMs: 100 });
    try {
      expect((await failure(driver.status(AbortSignal.timeout(2_000)))).code).toBe('device_timeout');
      await eventually(() => sockets[0]?.destroyed || sockets[0]?.readableEnded, { timeoutMs: 10_000, what: 'the dead connection to be dropped' });
      expect((await failure(driver.status(AbortSignal.timeout(2_000)))).code).toBe('device_timeout');
      expect(sockets).toHaveLength(2);
    } finally {
      await driver.close(never);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => half.close(() => resolve()));
    }
  });
});

describe('driver-adb direct to a phone that requires authentication', () => {
  const android = createVirtualAndroid();
  const trustedKeys = new Set<string>();
  const prompts: string[] = [];
  let answer = true;
  let adbd: Adbd;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'apex-adbkey-'));
    adbd = await startAdbd({
      backend: android.backend,
      host: '127.0.0.1',
      auth: {
        trustedKeys,
        allow: (key) => {
          prompts.push(key);
          return answer;
        },
      },
    });
  });

  afterAll(async () => {
    await adbd?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('first use: the phone prompts for the new key (told at once), then the call works once allowed', async () => {
    const driver = createAdbDriver({ deviceId: 'secure', device: { host: adbd.serial }, keyDir: adbKeyDir(dataDir) });
    const first = await failure(driver.status(live()));
    expect(first.code).toBe('device_offline');
    expect(first.message).toBe('Device secure has not allowed this computer to debug it.');
    await eventually(() => trustedKeys.size === 1, { timeoutMs: 10_000, what: 'the prompt to allow the key' });
    // The phone's CNXN follows the user's answer on the same connection.
    const status = await eventually(() => driver.status(live()), { timeoutMs: 10_000, what: 'the phone to take calls once allowed' });
    expect(status.platform).toBe('android');
    expect(adbd.connectionCount()).toBe(1);
    await driver.close(never);

    // The key was made under the data directory: private to its owner, its public half what the phone was shown.
    const keyFile = join(adbKeyDir(dataDir), 'adbkey');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(readFileSync(join(adbKeyDir(dataDir), 'adbkey.pub'), 'utf8').trim()).toBe(prompts[0]);
    expect(prompts[0]).toMatch(/^[A-Za-z0-9+/]+=* \S+@\S+$/);
    expect(Buffer.from(prompts[0].split(' ')[0], 'base64')).toHaveLength(524); // ANDROID_PUBKEY_ENCODED_SIZE
  });

  it('later connections sign the token with the remembered key: no prompt', async () => {
    const driver = createAdbDriver({ deviceId: 'secure', device: { host: adbd.serial }, keyDir: adbKeyDir(dataDir) });
    expect((await driver.status(live())).platform).toBe('android');
    expect(prompts).toHaveLength(1);
    await driver.close(never);
  });

  it('a key the user does not allow: every call says so, and nothing runs', async () => {
    answer = false;
    const otherDir = mkdtempSync(join(tmpdir(), 'apex-adbkey-'));
    try {
      const driver = createAdbDriver({ deviceId: 'secure', device: { host: adbd.serial }, keyDir: otherDir });
      expect((await failure(driver.status(live()))).message).toMatch(/has not allowed this computer/);
      await eventually(() => prompts.length === 2, { timeoutMs: 10_000, what: 'the prompt for the second key' });
      const again = await failure(driver.tap({ x: 1, y: 1 }, live()));
      expect(again).toMatchObject({ code: 'device_offline', hint: expect.stringMatching(/accept the prompt/) });
      expect(trustedKeys.size).toBe(1);
      await driver.close(never);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('without a key directory a secure phone cannot be used: device_offline, unauthorized', async () => {
    const driver = createAdbDriver({ deviceId: 'secure', device: { host: adbd.serial } });
    expect((await failure(driver.status(live()))).message).toMatch(/has not allowed this computer/);
    await driver.close(never);
  });
});
