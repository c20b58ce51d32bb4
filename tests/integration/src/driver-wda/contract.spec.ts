import { describeDriverContract } from '@apex/hub/testing';
import { createWdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone } from '@apex/virtual-device';

describeDriverContract('driver-wda over the virtual iPhone', async () => {
  const iphone = await startVirtualIPhone({ port: 0 });
  const driver = createWdaDriver({ deviceId: 'contract-device', url: iphone.url });
  return {
    driver,
    appId: 'com.apple.Preferences',
    textInputAppId: 'com.apple.mobilesafari',
    alertAppId: 'com.apple.Maps',
    keyboardAppId: 'com.apple.mobilenotes',
    webUrl: 'https://apex.example/',
    close: () => iphone.close(),
  };
});
