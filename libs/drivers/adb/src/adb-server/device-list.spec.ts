import { parseDeviceList } from './device-list';

describe('the adb server device list (long form)', () => {
  it('reads serial, state and model of each line, whatever the state', () => {
    const text = [
      'emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1',
      '127.0.0.1:40123        offline transport_id:3',
      'R58M1234ABC            unauthorized usb:1-1 transport_id:4',
      '0123456789ABCDEF       no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-2 transport_id:5',
      '',
    ].join('\n');
    expect(parseDeviceList(text)).toEqual([
      { serial: 'emulator-5554', state: 'device', product: 'sdk_gphone64_x86_64', model: 'sdk_gphone64_x86_64' },
      { serial: '127.0.0.1:40123', state: 'offline' },
      { serial: 'R58M1234ABC', state: 'unauthorized' },
      { serial: '0123456789ABCDEF', state: 'no permissions' },
    ]);
    expect(parseDeviceList('')).toEqual([]);
  });
});
