import { describeDriverContract } from '@apex/capability/testing';
import { createAppiumDriver } from '@apex/driver-appium';
import { startVirtualIPhone } from '@apex/virtual-device';
import { startAppiumServer } from './support/appium-server';
import { iosCapabilities } from './support/capabilities';

describeDriverContract('driver-appium over an Appium server and the virtual iPhone', async () => {
  const [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
  const driver = createAppiumDriver({ deviceId: 'contract-device', serverUrl: server.url, capabilities: iosCapabilities(iphone.url) });
  return {
    driver,
    appId: 'com.apple.Preferences',
    textInputAppId: 'com.apple.mobilesafari',
    close: async () => {
      await server.close();
      await iphone.close();
    },
  };
});
