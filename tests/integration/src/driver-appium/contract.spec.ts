import { describeDriverContract } from '@apex/hub/testing';
import { createAppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer } from '@apex/driver-appium/testing';
import { startVirtualIPhone } from '@apex/virtual-device';
import { VIRTUAL_IPHONE_CONTRACT_APPS } from '../support/contract-apps';

describeDriverContract('driver-appium over an Appium server and the virtual iPhone', async () => {
  const [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
  const driver = createAppiumDriver({ deviceId: 'contract-device', serverUrl: server.url, capabilities: iosCapabilities(iphone.url) });
  return {
    driver,
    ...VIRTUAL_IPHONE_CONTRACT_APPS,
    close: async () => {
      await server.close();
      await iphone.close();
    },
  };
});
