import type { DriverContractFixture } from '@apex/hub/testing';

/** What the driver contract needs of a device, as the virtual iPhone has it (behind every driver tested here). */
export const VIRTUAL_IPHONE_CONTRACT_APPS = {
  appId: 'com.apple.Preferences',
  textInputAppId: 'com.apple.mobilesafari',
  alertAppId: 'com.apple.Maps',
  keyboardAppId: 'com.apple.mobilenotes',
  webUrl: 'https://apex.example/',
} as const satisfies Omit<DriverContractFixture, 'driver' | 'close'>;
