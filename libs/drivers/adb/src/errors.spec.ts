import { ApexError, LEAKY_WORDS } from '@apex/errors';
import { AdbServerFailure } from './adb-server/adb-server-client';
import { AdbTransportError } from './adb-server/socket-reader';
import { DeviceCommandFailure, translateAdbFailure } from './errors';

const where = { deviceId: 'pixel', serial: 'emulator-5554', server: '127.0.0.1:5037' };

/** The adb server's refusals, as AOSP's adb/transport.cpp and adb_client.cpp word them. */
const REFUSALS: [string, string, RegExp][] = [
  ["device 'emulator-5554' not found", 'device_offline', /not connected: no phone with serial "emulator-5554"/],
  ['no devices/emulators found', 'device_offline', /not connected/],
  [
    "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.",
    'device_offline',
    /has not allowed this computer to debug it/,
  ],
  ['device still authorizing', 'device_offline', /has not allowed this computer/],
  ['device offline', 'device_offline', /attached but offline/],
  ['closed', 'unsupported_operation', /older than 7/],
  ['something else', 'device_error', /refused the request to tap/],
];

describe('adb failures in Apex words', () => {
  it.each(REFUSALS)('%j → %s', (text, code, message) => {
    const error = translateAdbFailure(new AdbServerFailure('host:transport:emulator-5554', text), where, 'tap');
    expect(error).toBeInstanceOf(ApexError);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(LEAKY_WORDS);
    expect(error.cause).toBeInstanceOf(AdbServerFailure);
  });

  it('words transport failures and failed commands, keeping the raw text in cause only', () => {
    expect(translateAdbFailure(new AdbTransportError('refused', 'connect ECONNREFUSED 127.0.0.1:5037'), where, 'tap')).toMatchObject({
      code: 'device_offline',
      message: 'Device pixel cannot be reached: no Android debugging server answers at 127.0.0.1:5037.',
    });
    expect(translateAdbFailure(new AdbTransportError('refused', 'x'), { deviceId: 'pixel', serial: '192.168.1.20:5555', direct: true }, 'tap')).toMatchObject({
      code: 'device_offline',
      message: 'Device pixel cannot be reached: nothing answers at 192.168.1.20:5555.',
    });
    expect(translateAdbFailure(new AdbTransportError('aborted', 'x'), where, 'tap').code).toBe('device_timeout');
    expect(translateAdbFailure(new AdbTransportError('closed', 'x'), where, 'tap').code).toBe('device_offline');
    expect(translateAdbFailure(new AdbTransportError('too_large', 'x'), where, 'tap').code).toBe('device_error');
    const failed = translateAdbFailure(new DeviceCommandFailure(255, "java.lang.IllegalArgumentException: Unknown command: x\n\tat com.android.server.input.InputShellCommand"), where, 'tap');
    expect(failed.code).toBe('device_error');
    expect(`${failed.message} ${failed.hint}`).not.toMatch(/java|InputShellCommand|com\.android/);
    const apex = new ApexError('app_not_found', 'kept');
    expect(translateAdbFailure(apex, where, 'tap')).toBe(apex);
  });
});
