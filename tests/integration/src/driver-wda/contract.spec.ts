import { describeDriverContract } from '@apex/hub/testing';
import { createWdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone } from '@apex/virtual-device';
import { VIRTUAL_IPHONE_CONTRACT_APPS } from '../support/contract-apps';

describeDriverContract('driver-wda over the virtual iPhone', async () => {
  const iphone = await startVirtualIPhone({ port: 0 });
  const driver = createWdaDriver({ deviceId: 'contract-device', url: iphone.url });
  return {
    driver,
    ...VIRTUAL_IPHONE_CONTRACT_APPS,
    close: () => iphone.close(),
  };
});
