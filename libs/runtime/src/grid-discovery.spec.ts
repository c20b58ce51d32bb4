import { deviceIdOf } from './grid-discovery';
import { parseConfig } from './config';

describe('device lab ids and configuration', () => {
  it('names a phone by its udid, made a valid device id', () => {
    expect(deviceIdOf('lab', { 'appium:udid': '00008110-001A2B3C' })).toBe('00008110-001A2B3C');
    expect(deviceIdOf('lab', { udid: 'emulator 5554' })).toBe('emulator-5554');
  });

  it('names a phone without udid by a stable hash of its stereotype (key order does not matter)', () => {
    const a = deviceIdOf('lab', { platformName: 'iOS', 'appium:deviceName': 'iPhone 15' });
    expect(a).toMatch(/^lab-[0-9a-f]{12}$/);
    expect(deviceIdOf('lab', { 'appium:deviceName': 'iPhone 15', platformName: 'iOS' })).toBe(a);
    expect(deviceIdOf('lab', { platformName: 'iOS', 'appium:deviceName': 'iPhone 14' })).not.toBe(a);
  });

  it('accepts a configuration with grids and no devices, and checks grid fields', () => {
    const config = parseConfig({ grids: [{ id: 'lab', url: 'http://127.0.0.1:4444', match: { platformName: 'iOS' } }] });
    expect(config.devices).toEqual([]);
    expect(config.grids[0]).toMatchObject({ id: 'lab', url: 'http://127.0.0.1:4444' });
    expect(() => parseConfig({})).toThrow(/devices: must list at least one device \(or a grid\)/);
    expect(() => parseConfig({ grids: [{ id: 'lab', url: 'ftp://x' }, { id: 'lab', url: 'http://127.0.0.1:4444', refreshMs: 1 }] })).toThrow(
      /grids\.0\.url.*grids\.1\.refreshMs|grids\.1\.refreshMs.*grids\.0\.url/,
    );
  });
});
