import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '../testing/real-adb';
import { startAdbd, type Adbd } from './adbd';
import { createVirtualAndroid } from './virtual-android';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The centre, in pixels, of the first dump node whose attribute `attr` is `value`. */
function centreOf(dump: string, attr: string, value: string): [number, number] {
  const node = dump.match(new RegExp(`<node [^>]*${attr}="${value}"[^>]*>`))?.[0];
  if (!node) throw new Error(`no node with ${attr}="${value}" in the dump`);
  const [x1, y1, x2, y2] = (node.match(/bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/) ?? []).slice(1).map(Number);
  return [Math.round((x1 + x2) / 2), Math.round((y1 + y2) / 2)];
}

describeWithRealAdb('the virtual Android phone, driven by the real adb binary', () => {
  const android = createVirtualAndroid();
  let adb: RealAdbServer;
  let adbd: Adbd;
  const shell = async (...args: string[]) => adb.run(['-s', adbd.serial, 'shell', ...args]);

  beforeAll(async () => {
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1', extraFeatures: ['cmd'] });
    adb = await startRealAdbServer();
    expect((await adb.run(['connect', adbd.serial])).stdout.toString()).toContain(`connected to ${adbd.serial}`);
  });
  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
  });

  it('says who it is: Android 14, its model, in `adb devices -l`', async () => {
    expect((await shell('getprop', 'ro.build.version.release')).stdout.toString().trim()).toBe('14');
    const devices = (await adb.run(['devices', '-l'])).stdout.toString();
    expect(devices).toContain(adbd.serial);
    expect(devices).toContain(`model:${android.phone.profile.model.replace(/ /g, '_')}`);
  });

  it('hands `exec-out screencap -p` the phone’s own PNG, byte for byte', async () => {
    const captured = await adb.run(['-s', adbd.serial, 'exec-out', 'screencap', '-p']);
    expect(captured.code).toBe(0);
    expect(pngSize(captured.stdout)).toEqual({ width: 1080, height: 2400 });
    expect(captured.stdout.equals(android.phone.renderPng())).toBe(true);
  });

  it('turns Wi-Fi off by tapping the switch found in `uiautomator dump /dev/tty`', async () => {
    expect((await shell('am', 'start', '-a', 'android.settings.WIFI_SETTINGS')).code).toBe(0);
    const dump = (await shell('uiautomator', 'dump', '/dev/tty')).stdout.toString();
    expect(dump).toContain('<hierarchy rotation="0">');
    expect((await shell('settings', 'get', 'global', 'wifi_on')).stdout.toString().trim()).toBe('1');
    const [x, y] = centreOf(dump, 'class', 'android.widget.Switch');
    expect((await shell('input', 'tap', String(x), String(y))).code).toBe(0);
    expect((await shell('settings', 'get', 'global', 'wifi_on')).stdout.toString().trim()).toBe('0');
  });

  it('answers an unknown command as the device shell does (exit 127)', async () => {
    const result = await shell('frobnicate');
    expect(result.code).toBe(127);
    expect(result.stderr.toString()).toContain('/system/bin/sh: frobnicate: inaccessible or not found');
  });
});
