import { DeviceHub } from '@apex/hub';
import sharp from 'sharp';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from './perception';
import { renderScreen } from './testing/rendered-screen';
import { uiNode } from './testing/ui-nodes';

/** Every image perception hands to sharp, in order: what "decoded once" is checked against. */
const mockSharpInputs: unknown[] = [];
jest.mock('./sharp', () => {
  const actual = jest.requireActual<typeof import('./sharp')>('./sharp');
  return {
    sharp: (...args: Parameters<typeof actual.sharp>) => {
      mockSharpInputs.push(args[0]);
      return actual.sharp(...args);
    },
  };
});

const OCR_TIMEOUT = 120_000;
const GEOMETRY = { width: 393, height: 852, scale: 3 };
const SCREEN = { x: 0, y: 0, width: 393, height: 852 };

/**
 * The Perception facade over a real hub. The device is the hub's in-memory FakeDriver serving a
 * screenshot rendered here and a matching UI tree (the whole stack over HTTP is in tests/integration).
 */
describe('Perception', () => {
  const rendered = renderScreen({
    ...GEOMETRY,
    texts: [
      { text: 'Wi-Fi', x: 60, baseline: 191 },
      { text: 'Only in the pixels', x: 40, baseline: 420, size: 20 },
    ],
    icons: [{ kind: 'magnifier', cx: 340, cy: 76, size: 24 }],
  });
  const tree = uiNode('app', SCREEN, { id: 'app', label: 'Demo' }, [
    uiNode('cell', { x: 0, y: 164, width: 393, height: 44 }, { id: 'wifi-row', label: 'Wi-Fi' }),
    uiNode('button', { x: 318, y: 54, width: 44, height: 44 }, { id: 'glyph' }),
    uiNode('button', { x: 10, y: 54, width: 60, height: 44 }, { id: 'back', label: 'Back' }),
  ]);
  const driver = new FakeDriver({ screen: GEOMETRY });
  driver.behave('screenshot', async () => ({ png: rendered.png, width: 393 * 3, height: 852 * 3, scale: 3 }));
  driver.behave('uiTree', async () => tree);
  driver.behave('status', async () => ({
    platform: 'ios',
    screen: GEOMETRY,
    orientation: 'portrait',
    foregroundApp: { appId: 'com.example.demo', name: 'Demo' },
  }));
  const hub = new DeviceHub();
  hub.register({ id: 'phone', driver });
  const perception = new Perception(hub, { ocrWorkers: 1, ocrCacheSize: 4 });

  afterAll(async () => {
    await perception.close();
    await perception.close();
    await hub.close();
  });

  it('answers text the tree has without taking a screenshot', async () => {
    const before = driver.callsOf('screenshot').length;
    const { matches } = await perception.findText('phone', { text: 'WIFI' });
    expect(matches).toEqual([
      { text: 'Wi-Fi', bounds: { x: 0, y: 164, width: 393, height: 44 }, center: { x: 196.5, y: 186 }, confidence: 1, source: 'ui-tree', ref: expect.stringMatching(/^e\d+$/) },
    ]);
    expect(driver.callsOf('screenshot').length).toBe(before);
  });

  it(
    'reads the pixels for text the tree lacks (auto), without duplicating what the tree has',
    async () => {
      const { matches } = await perception.findText('phone', { text: 'only in the pixels' });
      expect(matches).toHaveLength(1);
      expect(matches[0]).toMatchObject({ text: 'Only in the pixels', source: 'ocr' });
      const drawn = rendered.textBounds[1];
      expect(Math.abs(matches[0].bounds.x - drawn.x)).toBeLessThanOrEqual(3);
      expect(Math.abs(matches[0].center.y - (drawn.y + drawn.height / 2))).toBeLessThanOrEqual(3);

      const ocrOnly = await perception.findText('phone', { text: 'Wi-Fi', source: 'ocr' });
      expect(ocrOnly.matches[0]?.source).toBe('ocr');
      expect(perception.ocrStats().workers).toBe(1);
    },
    OCR_TIMEOUT,
  );

  it('finds an unlabeled glyph by name, and a labeled button through the tree', async () => {
    const search = await perception.findIcon('phone', { name: 'magnifier' });
    expect(search.matches).toHaveLength(1);
    expect(search.matches[0]).toMatchObject({ label: 'search', source: 'library' });
    expect(Math.abs(search.matches[0].center.x - 340)).toBeLessThanOrEqual(4);
    const back = await perception.findIcon('phone', { name: 'back' });
    expect(back.matches[0]).toMatchObject({ label: 'Back', source: 'ui-tree', center: { x: 40, y: 76 } });
  });

  it(
    'describes the screen with the app, elements, named icons and OCR text',
    async () => {
      const d = await perception.describeScreen('phone', {});
      expect(d.app).toEqual({ appId: 'com.example.demo', name: 'Demo' });
      expect(d.elements.map((e) => e.label ?? e.icon)).toEqual(['Back', 'search', 'Wi-Fi']);
      expect(d.ocrText.map((t) => t.text)).toEqual(['Only in the pixels']);
    },
    OCR_TIMEOUT,
  );

  it('takes the resolved device id as given: no read resolves it again', async () => {
    const resolve = jest.spyOn(hub, 'resolve');
    try {
      await perception.findText('phone', { text: 'Wi-Fi', source: 'ui-tree' });
      await perception.findIcon('phone', { name: 'back' });
      await perception.getUiTree('phone', {});
      await perception.describeScreen('phone', { includeOcrText: false });
      expect(resolve).not.toHaveBeenCalled();
    } finally {
      resolve.mockRestore();
    }
  });

  // Schema rules (text, region, maxDepth, name or template) are the operations' (operations.spec.ts); what
  // stays here needs the decoded image or the device.
  it('rejects a template that is not a usable image with invalid_argument before touching the device', async () => {
    const calls = driver.calls.length;
    await expect(perception.findIcon('phone', { template: 'not base64 !!' })).rejects.toMatchObject({
      code: 'invalid_argument',
      issues: [{ path: 'template', message: 'is not a readable base64 PNG image' }],
    });
    const huge = await sharp({ create: { width: 257, height: 20, channels: 3, background: '#fff' } }).png().toBuffer();
    await expect(perception.findIcon('phone', { template: huge.toString('base64') })).rejects.toMatchObject({
      code: 'invalid_argument',
      issues: [{ path: 'template', message: 'must be at most 256×256 pixels' }],
    });
    expect(driver.calls.length).toBe(calls);
  });

  it('finds nothing when asked for nothing, and an unknown device is device_not_found', async () => {
    const calls = driver.calls.length;
    expect(await perception.findIcon('phone', {})).toEqual({ matches: [] });
    await expect(perception.findText('nope', { text: 'x' })).rejects.toMatchObject({ code: 'device_not_found' });
    await expect(perception.getUiTree('nope')).rejects.toMatchObject({ code: 'device_not_found' });
    expect(driver.calls.length).toBe(calls);
  });
});

describe('Perception: one capture, read once', () => {
  it(
    'describe_screen decodes its screenshot once for OCR and icon naming together (no second PNG decode)',
    async () => {
      const rendered = renderScreen({ ...GEOMETRY, texts: [{ text: 'Read once', x: 40, baseline: 420, size: 20 }], icons: [{ kind: 'trash', cx: 340, cy: 76, size: 24 }] });
      const tree = uiNode('app', SCREEN, { id: 'app', label: 'Demo' }, [uiNode('button', { x: 318, y: 54, width: 44, height: 44 }, { id: 'glyph' })]);
      const driver = new FakeDriver({ screen: GEOMETRY });
      driver.behave('screenshot', async () => ({ png: rendered.png, width: 393 * 3, height: 852 * 3, scale: 3 }));
      driver.behave('uiTree', async () => tree);
      const hub = new DeviceHub();
      hub.register({ id: 'phone', driver });
      const perception = new Perception(hub, { ocrWorkers: 1 });
      mockSharpInputs.length = 0;
      try {
        const d = await perception.describeScreen('phone', {});
        expect(d.elements.map((e) => e.icon)).toEqual(['trash']);
        expect(d.ocrText.map((t) => t.text)).toEqual(['Read once']);
        expect(mockSharpInputs.filter((input) => input === rendered.png)).toHaveLength(1);
      } finally {
        await perception.close();
        await hub.close();
      }
    },
    OCR_TIMEOUT,
  );
});
