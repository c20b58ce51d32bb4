import { captureScreen, DeviceHub, getUiTree } from '@apex/hub';
import { createWdaDriver } from '@apex/driver-wda';
import { OcrService, TesseractPool, type OcrPage } from '@apex/perception';
import type { UiNode } from '@apex/port';
import { SAFARI_BUNDLE_ID, SETTINGS_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

/**
 * OCR after a scroll reads only the bands of text it has not seen, and what it answers is word for word what a
 * full read of the same screenshot answers (a fresh service, nothing remembered), on the virtual iPhone's pixels.
 */

const OCR_TIMEOUT = 180_000;
const ID = 'phone';

function nodeLabelled(root: UiNode, label: string): UiNode {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as UiNode;
    if (node.label === label) return node;
    stack.push(...node.children);
  }
  throw new Error(`no element labelled ${label}`);
}

function textOf(page: OcrPage): string[] {
  return page.lines.map((line) => line.text);
}

describe('incremental OCR on the virtual iPhone', () => {
  let iphone: VirtualIPhone;
  let hub: DeviceHub;
  const pool = new TesseractPool({ size: 1 });

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: ID, driver: createWdaDriver({ deviceId: ID, url: iphone.url }) });
  });

  afterAll(async () => {
    await pool.close();
    await hub.close();
    await iphone.close();
  });

  async function readAfterScroll(points: number) {
    const ocr = new OcrService(pool);
    const first = await captureScreen(hub, ID);
    const before = await ocr.read(first.png, first.scale);
    const read = ocr.stats();
    iphone.phone.drag(200, 600, 200, 600 - points, 0.05);
    const shot = await captureScreen(hub, ID);
    expect(shot.png.equals(first.png)).toBe(false);
    const incremental = await ocr.read(shot.png, shot.scale);
    const after = ocr.stats();
    const full = await new OcrService(pool).read(shot.png, shot.scale);
    return { before, incremental, full, firstBands: read.bandsRead, read: after.bandsRead - read.bandsRead, reused: after.bandsReused - read.bandsReused };
  }

  it(
    'after scrolling Settings by one row reads only the bands that changed, and equals a full read',
    async () => {
      iphone.phone.launchApp(SETTINGS_BUNDLE_ID);
      const tree = await getUiTree(hub, ID);
      const row = nodeLabelled(tree, 'Bluetooth').bounds.y - nodeLabelled(tree, 'Wi-Fi').bounds.y;
      expect(row).toBeGreaterThan(30);
      const { before, incremental, full, firstBands, read, reused } = await readAfterScroll(row);
      // The row that scrolled in at the bottom, and the rows cut by the screen's top bar and bottom edge.
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThanOrEqual(3);
      expect(reused).toBeGreaterThanOrEqual(firstBands - 3);
      expect(incremental).toEqual(full);
      expect(textOf(incremental).join(' ')).toContain('Bluetooth');
      expect(textOf(incremental).length).toBeGreaterThan(10);
      expect(textOf(incremental)).not.toEqual(textOf(before));
    },
    OCR_TIMEOUT,
  );

  it(
    'after scrolling the Safari page by one line of text reads a few bands, and equals a full read',
    async () => {
      iphone.phone.launchApp(SAFARI_BUNDLE_ID);
      // The page's paragraphs are set in 24 pt lines.
      const { incremental, full, firstBands, read, reused } = await readAfterScroll(24);
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThanOrEqual(4);
      expect(reused).toBeGreaterThanOrEqual(firstBands - 4);
      expect(incremental).toEqual(full);
      expect(textOf(incremental).join(' ')).toContain('What you can do');
    },
    OCR_TIMEOUT,
  );
});
