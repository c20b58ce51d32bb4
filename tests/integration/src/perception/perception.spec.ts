import { DeviceHub } from '@apex/hub';
import type { Rect } from '@apex/port';
import { createWdaDriver } from '@apex/driver-wda';
import { Perception, type TextMatch } from '@apex/perception';
import { startVirtualIPhone, type PhoneElement, type VirtualIPhone } from '@apex/virtual-device';
import sharp from 'sharp';

/**
 * Perception over the whole stack: virtual iPhones (light and dark) speaking WDA over HTTP, the WDA driver,
 * the hub, and real OCR / template matching on the rendered pixels.
 */

const OCR_TIMEOUT = 120_000;
const SETTINGS = 'com.apple.Preferences';
const SAFARI = 'com.apple.mobilesafari';
const PHOTOS = 'com.apple.mobileslideshow';
const NOTES = 'com.apple.mobilenotes';
const MAPS = 'com.apple.Maps';

/**
 * Safari's home page as the phone lays it out (libs/virtual-device/src/phone/apps/web-pages.ts): the web view
 * starts under the status bar (54 pt) and the address bar (52 pt); the page's first block, the 30 pt bold
 * heading "Welcome to Apex", sits 16 + 8 pt down in a 38 pt line, 20 pt from the left; the first paragraph
 * follows 10 pt lower in 24 pt lines. Text is drawn vertically centred on those lines.
 */
const WEB_TOP = 54 + 52;
const HEADING = { text: 'Welcome to Apex', centerY: WEB_TOP + 16 + 8 + 38 / 2, left: 20, lineHeight: 38 };
const FIRST_LINE = { text: 'Apex lets agents and people drive', centerY: WEB_TOP + 16 + 8 + 38 + 10 + 24 / 2, left: 20, lineHeight: 24 };

function findElement(root: PhoneElement, uid: string): PhoneElement {
  const stack = [root];
  while (stack.length > 0) {
    const el = stack.pop() as PhoneElement;
    if (el.uid === uid) return el;
    stack.push(...el.children);
  }
  throw new Error(`no element ${uid} on screen`);
}

function allElements(root: PhoneElement): PhoneElement[] {
  return [root, ...root.children.flatMap(allElements)];
}

function center(rect: Rect) {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

/** Where the ink is in a horizontal band of the screen (points), measured on the phone's own pixels. */
async function inkBounds(iphone: VirtualIPhone, band: { top: number; bottom: number; left: number; right: number }): Promise<Rect> {
  const scale = iphone.phone.profile.scale;
  const { data, info } = await sharp(iphone.phone.renderPng())
    .extract({
      left: Math.round(band.left * scale),
      top: Math.round(band.top * scale),
      width: Math.round((band.right - band.left) * scale),
      height: Math.round((band.bottom - band.top) * scale),
    })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const background = data[0];
  let x0 = info.width;
  let y0 = info.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (Math.abs(data[y * info.width + x] - background) > 60) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  return { x: band.left + x0 / scale, y: band.top + y0 / scale, width: (x1 - x0 + 1) / scale, height: (y1 - y0 + 1) / scale };
}

function expectWithin(actual: Rect, expected: Rect, tolerance: number): void {
  expect(Math.abs(actual.x - expected.x)).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.y - expected.y)).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.x + actual.width - (expected.x + expected.width))).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.y + actual.height - (expected.y + expected.height))).toBeLessThanOrEqual(tolerance);
}

async function rawSourceLength(iphone: VirtualIPhone): Promise<number> {
  const response = await fetch(`${iphone.url}/source`);
  const body = (await response.json()) as { value: string };
  return body.value.length;
}

describe('perception on the virtual iPhone', () => {
  let light: VirtualIPhone;
  let dark: VirtualIPhone;
  let hub: DeviceHub;
  let perception: Perception;

  beforeAll(async () => {
    light = await startVirtualIPhone({ port: 0, appearance: 'light' });
    dark = await startVirtualIPhone({ port: 0, appearance: 'dark' });
    hub = new DeviceHub();
    hub.register({ id: 'light', driver: createWdaDriver({ deviceId: 'light', url: light.url }) });
    hub.register({ id: 'dark', driver: createWdaDriver({ deviceId: 'dark', url: dark.url }) });
    perception = new Perception(hub, { ocrWorkers: 1 });
  });

  afterAll(async () => {
    await perception?.close();
    await hub?.close();
    await light?.close();
    await dark?.close();
  });

  describe('find_text', () => {
    it('finds Settings rows through the UI tree, tolerant of case and punctuation', async () => {
      light.phone.launchApp(SETTINGS);
      const snapshot = light.phone.snapshot();
      const wifiRow = allElements(snapshot).find((e) => e.type === 'Cell' && e.label === 'Wi-Fi') as PhoneElement;

      const { matches } = await perception.findText('light', { text: 'wifi' });
      expect(matches.length).toBeGreaterThan(0);
      expect(matches[0]).toMatchObject({ source: 'ui-tree', confidence: 1 });
      expect(matches[0].text).toBe('Wi-Fi');
      const rowCenter = center(wifiRow.rect);
      expect(Math.abs(matches[0].center.y - rowCenter.y)).toBeLessThanOrEqual(wifiRow.rect.height / 2);

      const exact = await perception.findText('light', { text: 'airplane mode', exact: true, source: 'ui-tree' });
      expect(exact.matches[0]?.text).toBe('Airplane Mode');
      const caseSensitive = await perception.findText('light', { text: 'airplane mode', exact: true, caseSensitive: true, source: 'ui-tree' });
      expect(caseSensitive.matches).toEqual([]);

      const none = await perception.findText('light', { text: 'Quantum Teleporter', source: 'ui-tree' });
      expect(none.matches).toEqual([]);
    });

    it(
      'finds browser page text only through OCR, within 6 points of where it is drawn (light)',
      async () => {
        light.phone.launchApp(SAFARI);
        const fromTree = await perception.findText('light', { text: HEADING.text, source: 'ui-tree' });
        expect(fromTree.matches).toEqual([]);

        for (const line of [HEADING, FIRST_LINE]) {
          const { matches } = await perception.findText('light', { text: line.text });
          expect(matches.length).toBeGreaterThan(0);
          const best = matches[0] as TextMatch;
          expect(best.source).toBe('ocr');
          expect(best.confidence).toBeGreaterThan(0.7);
          const half = line.lineHeight / 2 - 1;
          const drawn = await inkBounds(light, { top: line.centerY - half, bottom: line.centerY + half, left: line.left - 4, right: 380 });
          expect(Math.abs(drawn.x - line.left)).toBeLessThanOrEqual(2);
          expectWithin(best.bounds, drawn, 6);
        }
      },
      OCR_TIMEOUT,
    );

    it(
      'reads the same page on a dark screen',
      async () => {
        dark.phone.launchApp(SAFARI);
        const { matches } = await perception.findText('dark', { text: 'welcome to apex' });
        expect(matches[0]?.source).toBe('ocr');
        const drawn = await inkBounds(dark, { top: HEADING.centerY - 17, bottom: HEADING.centerY + 17, left: 16, right: 380 });
        expectWithin(matches[0].bounds, drawn, 6);

        const phrase = await perception.findText('dark', { text: 'read the getting started guide', source: 'ocr' });
        expect(phrase.matches[0]?.text).toBe('Read the getting started guide');
      },
      OCR_TIMEOUT,
    );

    it(
      'answers a repeated OCR query on an unchanged screen from the cache, and reads only a region when asked',
      async () => {
        light.phone.launchApp(SAFARI);
        await perception.findText('light', { text: 'What you can do', source: 'ocr' });
        const before = perception.ocrStats();
        const again = await perception.findText('light', { text: 'What you can do', source: 'ocr' });
        const after = perception.ocrStats();
        expect(again.matches[0]?.text).toBe('What you can do');
        expect(after.recognitions).toBe(before.recognitions);
        expect(after.cacheHits).toBe(before.cacheHits + 1);
        expect(after.workers).toBe(1);

        const inRegion = await perception.findText('light', {
          text: 'What you can do',
          source: 'ocr',
          region: { x: 0, y: 0, width: 393, height: 200 },
        });
        expect(inRegion.matches).toEqual([]);
      },
      OCR_TIMEOUT,
    );
  });

  describe('find_icon', () => {
    const expectedCenter = (iphone: VirtualIPhone, uid: string) => center(findElement(iphone.phone.snapshot(), uid).rect);

    it(
      'finds unlabeled glyph buttons by name with the built-in library; repeated icons each once',
      async () => {
        light.phone.launchApp(PHOTOS);
        const search = await perception.findIcon('light', { name: 'search' });
        expect(search.matches).toHaveLength(1);
        expect(search.matches[0]).toMatchObject({ source: 'library', label: 'search' });
        const searchButton = expectedCenter(light, 'photos/search');
        expect(Math.abs(search.matches[0].center.x - searchButton.x)).toBeLessThanOrEqual(6);
        expect(Math.abs(search.matches[0].center.y - searchButton.y)).toBeLessThanOrEqual(6);

        const trash = await perception.findIcon('light', { name: 'delete' });
        expect(trash.matches).toHaveLength(2);
        const trashButtons = [expectedCenter(light, 'photos/recents/trash'), expectedCenter(light, 'photos/favorites/trash')];
        for (const button of trashButtons) {
          expect(trash.matches.some((m) => Math.abs(m.center.x - button.x) <= 6 && Math.abs(m.center.y - button.y) <= 6)).toBe(true);
        }

        const gear = await perception.findIcon('light', { name: 'gear' });
        const gearButton = expectedCenter(light, 'photos/settings');
        expect(gear.matches.some((m) => Math.abs(m.center.x - gearButton.x) <= 6 && Math.abs(m.center.y - gearButton.y) <= 6)).toBe(true);

        const absent = await perception.findIcon('light', { name: 'close' });
        expect(absent.matches).toEqual([]);
      },
      OCR_TIMEOUT,
    );

    it(
      'finds icons by a template cut from a screenshot, on light and dark screens',
      async () => {
        light.phone.launchApp(PHOTOS);
        dark.phone.launchApp(PHOTOS);
        const glyph = center(findElement(light.phone.snapshot(), 'photos/recents/trash').rect);
        const scale = light.phone.profile.scale;
        const crop = await sharp(light.phone.renderPng())
          .extract({ left: Math.round((glyph.x - 14) * scale), top: Math.round((glyph.y - 14) * scale), width: 28 * scale, height: 28 * scale })
          .png()
          .toBuffer();
        const template = crop.toString('base64');

        for (const id of ['light', 'dark'] as const) {
          const { matches } = await perception.findIcon(id, { template });
          expect(matches).toHaveLength(2);
          expect(matches.every((m) => m.source === 'template')).toBe(true);
          const iphone = id === 'light' ? light : dark;
          for (const uid of ['photos/recents/trash', 'photos/favorites/trash']) {
            const c = expectedCenter(iphone, uid);
            expect(matches.some((m) => Math.abs(m.center.x - c.x) <= 6 && Math.abs(m.center.y - c.y) <= 6)).toBe(true);
          }
        }
      },
      OCR_TIMEOUT,
    );

    it('finds labeled buttons by name through the tree, synonyms included', async () => {
      light.phone.launchApp(SAFARI);
      const { matches } = await perception.findIcon('light', { name: 'export' });
      expect(matches[0]).toMatchObject({ source: 'ui-tree', label: 'Share' });
    });

    it('rejects a template that is not an image', async () => {
      await expect(perception.findIcon('light', { template: 'bm90IGFuIGltYWdl' })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    });
  });

  describe('get_ui_tree', () => {
    it('returns normalized, pruned nodes: interactive only, flat or with a depth limit', async () => {
      light.phone.launchApp(SETTINGS);
      const full = await perception.getUiTree('light', {});
      expect(full.format).toBe('tree');
      expect(full.root?.role).toBe('app');

      const flat = await perception.getUiTree('light', { interactiveOnly: true, format: 'flat' });
      const nodes = flat.nodes ?? [];
      expect(nodes.length).toBe(flat.nodeCount);
      const interactive = nodes.filter((n) => ['cell', 'switch', 'button'].includes(n.role));
      expect(interactive.map((n) => n.label)).toEqual(expect.arrayContaining(['Wi-Fi', 'Bluetooth', 'General']));
      expect(nodes.every((n) => !['text', 'other', 'window'].includes(n.role))).toBe(true);
      expect(flat.nodeCount).toBeLessThan(full.nodeCount);

      const shallow = await perception.getUiTree('light', { maxDepth: 1 });
      expect(shallow.truncated).toBe(true);
      expect(shallow.root?.children?.every((c) => c.children === undefined)).toBe(true);
    });
  });

  describe('describe_screen', () => {
    it(
      'describes Settings compactly, naming every tappable element',
      async () => {
        light.phone.launchApp(SETTINGS);
        const d = await perception.describeScreen('light', {});
        const rawSource = await rawSourceLength(light);
        expect(d.text.length / 4).toBeLessThan(1500);
        expect(rawSource).toBeGreaterThanOrEqual(10 * d.text.length);
        expect(d.app).toMatchObject({ appId: SETTINGS });
        expect(d.orientation).toBe('portrait');
        expect(d.keyboardVisible).toBe(false);
        expect(d.alert).toBeUndefined();

        const screen = light.phone.screenSize();
        const tappable = allElements(light.phone.snapshot()).filter(
          (e) =>
            ['Cell', 'Button', 'Switch'].includes(e.type) &&
            e.visible &&
            e.rect.y + e.rect.height / 2 > 0 &&
            e.rect.y + e.rect.height / 2 < screen.height,
        );
        expect(tappable.length).toBeGreaterThanOrEqual(10);
        for (const element of tappable) {
          expect(d.text).toContain(JSON.stringify(element.label));
        }
        for (const element of d.elements) {
          expect(d.refs[element.ref]).toEqual({ nodeId: element.nodeId, center: element.center });
        }
        expect(d.text).toMatch(/switch "Wi-Fi" = on/);
      },
      OCR_TIMEOUT,
    );

    it(
      'names unlabeled icon buttons from their pixels and lists page text the tree lacks',
      async () => {
        light.phone.launchApp(PHOTOS);
        const photos = await perception.describeScreen('light', {});
        expect(photos.elements.filter((e) => e.icon === 'trash')).toHaveLength(2);
        expect(photos.elements.find((e) => e.icon === 'search')).toBeDefined();
        expect(photos.text).toContain('(icon: search)');

        light.phone.launchApp(SAFARI);
        const safari = await perception.describeScreen('light', {});
        expect(safari.ocrText.map((t) => t.text)).toEqual(expect.arrayContaining([HEADING.text, FIRST_LINE.text]));
        expect(safari.text).toContain(JSON.stringify(HEADING.text));
      },
      OCR_TIMEOUT,
    );

    it('reports an alert and the keyboard, and bounds the element list', async () => {
      light.phone.launchApp(MAPS);
      const maps = await perception.describeScreen('light', { includeOcrText: false });
      expect(maps.alert?.buttons.length).toBeGreaterThanOrEqual(2);
      expect(maps.text).toContain('ALERT');
      light.phone.dismissAlert();

      light.phone.launchApp(NOTES);
      light.phone.focusElement('notes/note');
      const notes = await perception.describeScreen('light', { includeOcrText: false });
      expect(notes.keyboardVisible).toBe(true);
      expect(notes.elements.some((e) => e.role === 'key')).toBe(false);

      light.phone.launchApp(SETTINGS);
      const bounded = await perception.describeScreen('light', { maxElements: 3, includeOcrText: false });
      expect(bounded.elements).toHaveLength(3);
      expect(bounded.omittedElements).toBeGreaterThan(0);
      expect(bounded.text).toContain(`+${bounded.omittedElements} more elements`);
    });
  });
});
