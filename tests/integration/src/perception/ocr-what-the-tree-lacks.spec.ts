import { DeviceHub } from '@apex/hub';
import { createWdaDriver } from '@apex/driver-wda';
import { Perception } from '@apex/perception';
import {
  MAPS_BUNDLE_ID,
  MESSAGES_BUNDLE_ID,
  NOTES_BUNDLE_ID,
  PHOTOS_BUNDLE_ID,
  SAFARI_BUNDLE_ID,
  SETTINGS_BUNDLE_ID,
  startVirtualIPhone,
  type VirtualIPhone,
} from '@apex/virtual-device';

/**
 * describe_screen reads with OCR only the bands of text the tree does not already tell (a band whose ink lies
 * wholly in text-bearing leaves, unlabeled controls or the keyboard is skipped), and its `ocrText` is line for
 * line what it is when the whole screenshot is read, on the virtual iPhone's screens.
 */

const OCR_TIMEOUT = 240_000;

const SCREENS: { name: string; open: (iphone: VirtualIPhone) => void }[] = [
  { name: 'Home', open: (iphone) => iphone.phone.goHome() },
  { name: 'Settings', open: (iphone) => iphone.phone.launchApp(SETTINGS_BUNDLE_ID) },
  { name: 'Safari', open: (iphone) => iphone.phone.launchApp(SAFARI_BUNDLE_ID) },
  { name: 'Notes', open: (iphone) => iphone.phone.launchApp(NOTES_BUNDLE_ID) },
  { name: 'Maps with its alert', open: (iphone) => iphone.phone.launchApp(MAPS_BUNDLE_ID) },
  { name: 'Photos', open: (iphone) => iphone.phone.launchApp(PHOTOS_BUNDLE_ID) },
  { name: 'Messages', open: (iphone) => iphone.phone.launchApp(MESSAGES_BUNDLE_ID) },
];

describe('OCR of only what the tree lacks, on the virtual iPhone', () => {
  let iphone: VirtualIPhone;
  let hub: DeviceHub;
  /** Describes as Apex does. */
  let skipping: Perception;
  /** Describes after a whole-screen OCR of the same screenshot (find_text with source "ocr" reads it all). */
  let reading: Perception;

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'phone', driver: createWdaDriver({ deviceId: 'phone', url: iphone.url }) });
    skipping = new Perception(hub, { ocrWorkers: 1 });
    reading = new Perception(hub, { ocrWorkers: 1 });
  });

  afterAll(async () => {
    await skipping?.close();
    await reading?.close();
    await hub?.close();
    await iphone?.close();
  });

  it(
    'answers the same ocrText as a whole read on every screen, and skips the bands the tree tells',
    async () => {
      const skippedOn: Record<string, number> = {};
      for (const screen of SCREENS) {
        screen.open(iphone);
        const before = skipping.ocrStats().bandsSkipped;
        const described = await skipping.describeScreen('phone');
        skippedOn[screen.name] = skipping.ocrStats().bandsSkipped - before;
        await reading.findText('phone', { text: 'no such text on any screen', source: 'ocr' });
        const whole = await reading.describeScreen('phone');
        expect({ screen: screen.name, ocrText: described.ocrText }).toEqual({ screen: screen.name, ocrText: whole.ocrText });
      }
      expect(reading.ocrStats().bandsSkipped).toBe(0);
      // The home screen's icon captions are the icons' labels; Safari's web page is pixels only and is read.
      expect(skippedOn['Home']).toBeGreaterThanOrEqual(4);
      const skipped = Object.values(skippedOn).reduce((sum, n) => sum + n, 0);
      expect(skipped).toBeGreaterThanOrEqual(10);
      expect(skipping.ocrStats().bandsRead).toBe(reading.ocrStats().bandsRead - skipped);
    },
    OCR_TIMEOUT,
  );
});
