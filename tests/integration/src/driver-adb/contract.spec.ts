import { describeDriverContract } from '@apex/hub/testing';
import { createAdbDriver } from '@apex/driver-adb';
import { createVirtualAndroid, startAdbd } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer } from '@apex/virtual-device/testing';

/**
 * The driver contract for driver-adb: the real adb server (Debian's adb, private port) connected to the
 * virtual adbd in front of the virtual Android phone. Skipped, with the reason printed, where adb is absent.
 */
describeWithRealAdb('driver-adb over a real adb server', () => {
  describeDriverContract('driver-adb over the virtual Android phone', async () => {
    const android = createVirtualAndroid();
    const adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1' });
    const adb = await startRealAdbServer();
    const driver = createAdbDriver({ deviceId: 'contract-device', server: { host: '127.0.0.1', port: adb.port }, device: { host: adbd.serial } });
    return {
      driver,
      appId: 'com.android.settings',
      textInputAppId: 'com.android.chrome',
      alertAppId: 'com.google.android.apps.maps',
      keyboardAppId: 'com.android.chrome',
      webUrl: 'https://apex.example/',
      unsupported: ['pinch', 'getClipboard', 'setClipboard'],
      // The accessibility dump leaves the keyboard's window out (and the phone prints no frame for it): ask the phone.
      keyboardShown: () => android.phone.keyboardShown(),
      close: async () => {
        await adb.stop();
        await adbd.close();
      },
    };
  });
});

/** The same contract straight to the virtual adbd over TCP (the direct transport): no adb server, no adb binary. */
describe('driver-adb direct (no adb server)', () => {
  describeDriverContract('driver-adb direct to the virtual Android phone', async () => {
    const android = createVirtualAndroid();
    const adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1', extraFeatures: ['cmd'] });
    const driver = createAdbDriver({ deviceId: 'contract-device', device: { host: adbd.serial } });
    return {
      driver,
      appId: 'com.android.settings',
      textInputAppId: 'com.android.chrome',
      alertAppId: 'com.google.android.apps.maps',
      keyboardAppId: 'com.android.chrome',
      webUrl: 'https://apex.example/',
      unsupported: ['pinch', 'getClipboard', 'setClipboard'],
      keyboardShown: () => android.phone.keyboardShown(),
      close: async () => {
        await driver.close(AbortSignal.timeout(5_000));
        await adbd.close();
      },
    };
  });
});
