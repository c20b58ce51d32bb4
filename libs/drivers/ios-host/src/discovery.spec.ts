import { listBootedSimulators, parseBootedSimulators, iosVersionOfRuntime } from './simulators';
import { listUsbIPhones, parseUsbIPhones } from './usb-iphones';
import { installStandIns, type StandIns } from './testing';

const XCODE = { version: '15.4', build: '15F31d' };
const SIMULATORS = {
  'com.apple.CoreSimulator.SimRuntime.iOS-17-5': [
    { udid: 'A1B2C3D4-0000-4000-8000-000000000001', name: 'iPhone 15', state: 'Booted', isAvailable: true, deviceTypeIdentifier: 'com.apple.CoreSimulator.SimDeviceType.iPhone-15' },
    { udid: 'A1B2C3D4-0000-4000-8000-000000000002', name: 'iPhone SE (3rd generation)', state: 'Shutdown', isAvailable: true },
  ],
  'com.apple.CoreSimulator.SimRuntime.watchOS-10-5': [{ udid: 'W-1', name: 'Apple Watch Series 9 (45mm)', state: 'Booted', isAvailable: true }],
};

describe('finding iPhones on this host', () => {
  let tools: StandIns;
  const signal = new AbortController().signal;

  beforeEach(() => {
    tools = installStandIns({ xcode: XCODE, simulators: SIMULATORS, usb: [{ Udid: '00008110-000A1C2E3E38801E', ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1', ConnectionType: 'USB' }] });
  });
  afterEach(() => tools.remove());

  it('reads the runtime version from simctl runtime identifiers, iOS only', () => {
    expect(iosVersionOfRuntime('com.apple.CoreSimulator.SimRuntime.iOS-17-5')).toBe('17.5');
    expect(iosVersionOfRuntime('com.apple.CoreSimulator.SimRuntime.iOS-18-0-1')).toBe('18.0.1');
    expect(iosVersionOfRuntime('com.apple.CoreSimulator.SimRuntime.tvOS-17-5')).toBeUndefined();
  });

  it('lists booted iOS simulators through `xcrun simctl list devices booted -j`', async () => {
    await expect(listBootedSimulators({ signal, env: tools.env })).resolves.toEqual([
      { udid: 'A1B2C3D4-0000-4000-8000-000000000001', name: 'iPhone 15', osVersion: '17.5' },
    ]);
    expect(tools.calls()).toEqual([{ tool: 'xcrun', args: ['simctl', 'list', 'devices', 'booted', '-j'] }]);
  });

  it('finds no simulator where Xcode is missing, and none from output that is not the JSON listing', async () => {
    tools.setScenario({});
    await expect(listBootedSimulators({ signal, env: tools.env })).resolves.toEqual([]);
    await expect(listBootedSimulators({ signal, env: { PATH: '/nonexistent' } })).resolves.toEqual([]);
    expect(parseBootedSimulators('not json')).toEqual([]);
    expect(parseBootedSimulators('{"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [{"state": "Booted"}]}}')).toEqual([]);
  });

  it('lists USB iPhones through go-ios `ios list --details`', async () => {
    await expect(listUsbIPhones('ios', { signal, env: tools.env })).resolves.toEqual({
      devices: [{ udid: '00008110-000A1C2E3E38801E', model: 'iPhone14,5', osVersion: '17.5.1', connection: 'USB' }],
    });
    expect(tools.calls()).toEqual([{ tool: 'ios', args: ['list', '--details'] }]);
    expect(parseUsbIPhones('{"deviceList":[{"Udid":"X","ProductType":"iPhone9,1","ProductVersion":"15.8"}]}')).toEqual([{ udid: 'X', model: 'iPhone9,1', osVersion: '15.8' }]);
  });

  it('says why no USB iPhone could be listed: no USB service, or no go-ios', async () => {
    tools.setScenario({ xcode: XCODE });
    await expect(listUsbIPhones('ios', { signal, env: tools.env })).resolves.toEqual({ devices: [], unavailable: 'no USB device service (usbmuxd) on this machine' });
    await expect(listUsbIPhones('/nonexistent/ios', { signal, env: tools.env })).resolves.toMatchObject({ devices: [], unavailable: expect.stringContaining('go-ios is not installed') });
  });
});
