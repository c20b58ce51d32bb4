import { listBootedSimulators, parseBootedSimulators, iosVersionOfRuntime } from './simulators';
import { listUsbIPhones, parseDeviceIds, parseUsbIPhones, portForwardCommand } from './usb-iphones';
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
      tools: { kind: 'go-ios', binary: 'ios' },
    });
    expect(tools.calls()).toEqual([{ tool: 'ios', args: ['list', '--details'] }]);
    expect(parseUsbIPhones('{"deviceList":[{"Udid":"X","ProductType":"iPhone9,1","ProductVersion":"15.8"}]}')).toEqual([{ udid: 'X', model: 'iPhone9,1', osVersion: '15.8' }]);
  });

  it('says why no USB iPhone could be listed: no USB service, or neither go-ios nor libimobiledevice', async () => {
    tools.setScenario({ xcode: XCODE });
    await expect(listUsbIPhones('ios', { signal, env: tools.env })).resolves.toEqual({
      devices: [],
      tools: { kind: 'go-ios', binary: 'ios' },
      unavailable: 'no USB device service (usbmuxd) on this machine',
    });
    await expect(listUsbIPhones('/nonexistent/ios', { signal, env: tools.env })).resolves.toEqual({
      devices: [],
      tools: { kind: 'libimobiledevice' },
      unavailable: 'no USB device service (usbmuxd) on this machine',
    });
    const nothing = installStandIns({ xcode: XCODE }, { only: ['xcrun', 'xcodebuild'] });
    try {
      await expect(listUsbIPhones('ios', { signal, env: nothing.env })).resolves.toEqual({
        devices: [],
        unavailable: 'neither go-ios nor libimobiledevice is installed (npm i go-ios, or set ios.goIos)',
      });
    } finally {
      nothing.remove();
    }
  });

  it('lists USB iPhones through libimobiledevice where go-ios is missing: `idevice_id -l`, then `ideviceinfo -k` per phone', async () => {
    const only = installStandIns(
      { usb: [{ Udid: '00008110-000A1C2E3E38801E', ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1', DeviceName: "Ada's iPhone" }] },
      { only: ['idevice_id', 'ideviceinfo', 'iproxy'] },
    );
    try {
      await expect(listUsbIPhones('ios', { signal, env: only.env })).resolves.toEqual({
        devices: [{ udid: '00008110-000A1C2E3E38801E', model: 'iPhone14,5', osVersion: '17.5.1', name: "Ada's iPhone" }],
        tools: { kind: 'libimobiledevice' },
      });
      const calls = only.calls();
      expect(calls[0]).toEqual({ tool: 'idevice_id', args: ['-l'] });
      expect(calls.slice(1).map((c) => c.args).sort()).toEqual(
        ['DeviceName', 'ProductType', 'ProductVersion'].map((key) => ['-u', '00008110-000A1C2E3E38801E', '-k', key]),
      );
    } finally {
      only.remove();
    }
  });

  it('reads `idevice_id` listings, and forwards ports with the tools that listed the phone', () => {
    expect(parseDeviceIds('00008110-000A1C2E3E38801E\n3f2a8c0d5e6b7a8c9d0e1f2a3b4c5d6e7f8a9b0c (Network)\n\n')).toEqual([
      '00008110-000A1C2E3E38801E',
      '3f2a8c0d5e6b7a8c9d0e1f2a3b4c5d6e7f8a9b0c',
    ]);
    expect(parseDeviceIds('ERROR: Unable to retrieve device list!')).toEqual([]);
    expect(portForwardCommand({ kind: 'go-ios', binary: '/opt/ios' }, 'U1', 8101, 8100)).toEqual({ command: '/opt/ios', args: ['forward', '8101', '8100', '--udid=U1'] });
    expect(portForwardCommand({ kind: 'libimobiledevice' }, 'U1', 8101, 8100)).toEqual({ command: 'iproxy', args: ['8101:8100', '-u', 'U1'] });
  });
});
