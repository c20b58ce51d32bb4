import type { ApexError } from '@apex/errors';
import type { DeviceDriver, Platform } from '@apex/port';

/**
 * A driver for a phone this process cannot drive (yet): another node holds it, or it is still being prepared.
 * Every call, the health probe included, rejects with the error `why` makes.
 */
export function refusingDriver(platform: Platform, why: () => ApexError): DeviceDriver {
  const refuse = async (): Promise<never> => {
    throw why();
  };
  return {
    platform,
    status: refuse,
    screen: refuse,
    screenshot: refuse,
    uiTree: refuse,
    tap: refuse,
    swipe: refuse,
    typeText: refuse,
    pressButton: refuse,
    launchApp: refuse,
    terminateApp: refuse,
    ping: refuse,
  };
}
