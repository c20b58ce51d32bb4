import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import {
  DEVICE_OPERATIONS,
  MAX_SCREENSHOT_BYTES,
  MAX_SCREENSHOT_SIDE,
  defineOperation,
  encodeScreenshot,
  inputJsonSchema,
  toolOutputSchema,
  runOperation,
  screenshotEncoderOf,
  tapOperation,
  type ImageAttachment,
  type OperationAnnotations,
  type OperationResult,
  type OperationContext,
} from './index';
import { z } from 'zod';
import { rejectionOf } from '@apex/errors/testing';
import type { CapturedScreen } from '@apex/hub';

function imageOf(result: OperationResult): ImageAttachment {
  if (!result.image) throw new Error('expected an image');
  return result.image;
}


describe('the catalog', () => {
  const ANNOTATION_KEYS: (keyof OperationAnnotations)[] = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

  it('has the forty device operations, each named once in snake_case', () => {
    const names = DEVICE_OPERATIONS.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(
      [
        'list_devices',
        'device_status',
        'wait_for_device',
        'take_screenshot',
        'tap',
        'swipe',
        'input_text',
        'launch_app',
        'terminate_app',
        'press_button',
        'list_apps',
        'find_text',
        'find_icon',
        'get_ui_tree',
        'describe_screen',
        'long_press',
        'double_tap',
        'pinch',
        'open_url',
        'set_orientation',
        'get_clipboard',
        'set_clipboard',
        'set_lock',
        'hide_keyboard',
        'handle_alert',
        'set_appearance',
        'wait_for',
        'install_app',
        'uninstall_app',
        'reset_app',
        'app_state',
        'background_app',
        'set_permission',
        'set_location',
        'biometric',
        'push_notification',
        'add_media',
        'get_logs',
        'list_crashes',
        'get_crash',
      ].sort(),
    );
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it.each(DEVICE_OPERATIONS.map((op) => [op.name, op] as const))('%s states all four annotations', (_name, op) => {
    expect(Object.keys(op.annotations).sort()).toEqual([...ANNOTATION_KEYS].sort());
    for (const key of ANNOTATION_KEYS) expect(typeof op.annotations[key]).toBe('boolean');
    // A read-only operation cannot be destructive.
    if (op.annotations.readOnlyHint) expect(op.annotations.destructiveHint).toBe(false);
  });

  it('the type requires every annotation', () => {
    const partial = () =>
      defineOperation({
        name: 'x',
        title: 'X',
        description: 'x',
        input: z.strictObject({}),
        output: z.object({}),
        toolset: 'observe',
        // @ts-expect-error openWorldHint is missing
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
        handler: async () => ({}),
      });
    expect(partial).toBeDefined();
  });

  it.each(DEVICE_OPERATIONS.map((op) => [op.name, op] as const))('%s has a strict input and an object output schema', (_name, op) => {
    expect(op.title.length).toBeGreaterThan(0);
    expect(op.description.length).toBeGreaterThan(40);
    const input = inputJsonSchema(op);
    expect(input.type).toBe('object');
    expect(input.additionalProperties).toBe(false);
    expect(z.toJSONSchema(op.output, { io: 'output' }).type).toBe('object');
    if ('device' in op.input.shape) expect(input.required ?? []).not.toContain('device');
  });
});

describe('actions (acts: true)', () => {
  const ACTIONS = ['tap', 'double_tap', 'long_press', 'swipe', 'pinch', 'input_text', 'hide_keyboard', 'press_button', 'handle_alert', 'launch_app', 'terminate_app', 'open_url', 'set_orientation', 'set_appearance', 'set_lock', 'background_app', 'biometric', 'push_notification'];

  it('are the eighteen that take observe and answer observed; no other operation does', () => {
    expect(DEVICE_OPERATIONS.filter((op) => op.acts).map((op) => op.name).sort()).toEqual([...ACTIONS].sort());
    for (const op of DEVICE_OPERATIONS) {
      expect('observe' in op.input.shape).toBe(Boolean(op.acts));
      expect('observed' in op.output.shape).toBe(Boolean(op.acts));
    }
  });

  it('are registered as the object their file exports', () => {
    expect(DEVICE_OPERATIONS).toContain(tapOperation);
    expect('observe' in tapOperation.input.shape).toBe(true);
  });
});

describe('the advertised output schema', () => {
  it('says every result is an object, without outlining its fields (the result and the REST document show them)', () => {
    expect(toolOutputSchema()).toEqual({ type: 'object' });
  });
});

describe('runOperation', () => {
  let hub: DeviceHub;
  let driver: FakeDriver;
  let ctx: OperationContext;

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'phone-a', name: 'Phone A', driver });
    ctx = { hub, perception: new Perception(hub) };
  });
  afterEach(async () => {
    await ctx.perception.close();
    await hub.close();
  });

  it('resolves only a deviceField input: a filter named device reaches the handler as given', async () => {
    const filter = defineOperation({
      name: 'list_things',
      title: 'List things',
      description: 'Things, optionally of one device.',
      input: z.strictObject({ device: z.string().optional() }),
      output: z.object({ device: z.string().optional() }),
      toolset: 'observe',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async (_ctx, { device }) => ({ device }),
      summarize: () => 'things',
    });
    hub.register({ id: 'phone-b', driver: new FakeDriver() });
    expect((await runOperation(ctx, filter, {}, [filter])).output).toEqual({});
    expect((await runOperation(ctx, filter, { device: 'gone' }, [filter])).output).toEqual({ device: 'gone' });
    expect((await rejectionOf(runOperation(ctx, 'list_apps', {}))).issues).toEqual([expect.objectContaining({ path: 'device' })]);
  });

  it('a call without device goes to the default device when several exist, and its answer names that device', async () => {
    const withDefault = new DeviceHub({ backgroundProbes: false, defaultDevice: 'phone-b' });
    const other = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    withDefault.register({ id: 'phone-a', driver: new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } }) });
    const alone = await runOperation({ hub: withDefault, perception: ctx.perception }, 'tap', { x: 1, y: 2, observe: 'none' });
    expect(alone.summary).toBe('Tapped (1, 2).'); // one device: nothing to say
    withDefault.register({ id: 'phone-b', driver: other });
    try {
      const tapped = await runOperation({ hub: withDefault, perception: ctx.perception }, 'tap', { x: 10, y: 20, observe: 'none' });
      expect(tapped.summary).toBe('On phone-b (the default device): Tapped (10, 20).');
      expect(other.calls.map((c) => c.method)).toContain('tap');
      const named = await runOperation({ hub: withDefault, perception: ctx.perception }, 'tap', { device: 'phone-a', x: 10, y: 20, observe: 'none' });
      expect(named.summary).toBe('Tapped (10, 20).');
    } finally {
      await withDefault.close();
    }
  });

  it('lists every bad field of an invalid input before reaching a device', async () => {
    const error = await rejectionOf(runOperation(ctx, 'tap', { x: -1, z: 3 }));
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toMatch(/^Invalid tap arguments: /);
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['x', 'z']);
    expect(driver.calls).toEqual([]);
  });

  // The operation schemas are the only input validation: neither the primitives nor perception parse again.
  const badInputs: [string, unknown, string][] = [
    ['tap', { x: Number.NaN, y: 1 }, 'x'],
    ['tap', { x: 1, y: Number.POSITIVE_INFINITY }, 'y'],
    ['tap', { x: '1', y: 1 }, 'x'],
    ['tap', { x: 10 }, 'y'],
    ['tap', { x: 10_001, y: 1 }, 'x'],
    ['input_text', { text: '' }, 'text'],
    ['input_text', {}, 'text'],
    ['input_text', { text: 'x'.repeat(2001) }, 'text'],
    ['launch_app', { appId: '' }, 'appId'],
    ['launch_app', { appId: 'com.x; rm -rf /' }, 'appId'],
    ['terminate_app', { appId: 'a'.repeat(300) }, 'appId'],
    ['terminate_app', {}, 'appId'],
    ['press_button', { button: 'power' }, 'button'],
    ['take_screenshot', { format: 'gif' }, 'format'],
    ['take_screenshot', { resolution: 'retina' }, 'resolution'],
    ['take_screenshot', { maxWidth: 10 }, 'maxWidth'],
    ['find_icon', {}, 'name'],
    ['find_icon', { name: '   ' }, 'name'],
    ['find_icon', { name: 'search', threshold: 2 }, 'threshold'],
    ['find_icon', { template: 'A'.repeat(2_000_001) }, 'template'],
    ['find_text', { text: '  ' }, 'text'],
    ['find_text', { text: '...' }, 'text'],
    ['find_text', { text: 'a'.repeat(501) }, 'text'],
    ['find_text', { text: 'a', region: { x: 0, y: 0, width: -5, height: 10 } }, 'region.width'],
    ['get_ui_tree', { maxDepth: -1 }, 'maxDepth'],
    ['get_ui_tree', { maxDepth: 101 }, 'maxDepth'],
    ['describe_screen', { maxElements: 0 }, 'maxElements'],
    ['swipe', { direction: 'up', from: { x: 1, y: 1 } }, 'from'],
    ['swipe', {}, 'direction'],
    ['swipe', { direction: 'sideways' }, 'direction'],
    ['swipe', { direction: 'up', distance: -5 }, 'distance'],
    ['swipe', { direction: 'up', durationMs: 5_001 }, 'durationMs'],
    ['swipe', { direction: 'up', durationMs: 49 }, 'durationMs'],
    ['swipe', { from: { x: Number.NaN, y: 10 }, to: { x: 10, y: 10 } }, 'from.x'],
    ['device_status', { device: '' }, 'device'],
    // As REST refuses them in a path, so that both faces give the same answer.
    ['device_status', { device: 'phone-a\u001b[2J' }, 'device'],
    ['tap', { device: '\u0000', x: 1, y: 1 }, 'device'],
  ];
  it.each(badInputs.map(([name, input, path]) => [name, path, input] as const))('%s rejects a bad %s', async (name, path, input) => {
    const error = await rejectionOf(runOperation(ctx, name, input));
    expect(error.code).toBe('invalid_argument');
    expect(error.issues?.map((i) => i.path)).toContain(path);
    expect(driver.calls).toEqual([]);
  });

  it('accepts the bounds themselves', async () => {
    await runOperation(ctx, 'swipe', { direction: 'up', durationMs: 5_000 });
    await runOperation(ctx, 'input_text', { text: 'x'.repeat(2000) });
    await runOperation(ctx, 'get_ui_tree', { maxDepth: 100 });
    expect((await runOperation(ctx, 'find_text', { text: 'a'.repeat(500), source: 'ui-tree' })).output).toEqual({ matches: [] });
    expect(driver.callsOf('swipe').map((c) => c.args[0])).toEqual([expect.objectContaining({ durationMs: 5_000 })]);
  });

  it('finds an icon by a name with spaces around it', async () => {
    const node = { enabled: true, visible: true, selected: false, focused: false };
    const search = { ...node, id: 'b', role: 'button' as const, label: 'Search', bounds: { x: 10, y: 10, width: 40, height: 40 }, children: [] };
    driver.behave('uiTree', async () => ({ ...node, id: 'root', role: 'app', bounds: { x: 0, y: 0, width: 390, height: 844 }, children: [search] }));
    const { output } = await runOperation(ctx, 'find_icon', { name: '  search ' });
    expect(output.matches).toEqual([expect.objectContaining({ label: 'Search', source: 'ui-tree' })]);
  });

  it.each([
    ['tap', { x: 10, y: 20 }],
    ['find_text', { text: 'Settings', source: 'ui-tree' }],
    ['get_ui_tree', {}],
    ['describe_screen', { includeOcrText: false }],
    ['take_screenshot', {}],
    ['swipe', { direction: 'down' }],
  ])('%s resolves the device exactly once', async (name, input) => {
    const resolve = jest.spyOn(hub, 'resolve');
    await runOperation(ctx, name, input);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('rejects a non-object input as a whole', async () => {
    const error = await rejectionOf(runOperation(ctx, 'tap', 'tap at 3,4'));
    expect(error.code).toBe('invalid_argument');
  });

  it('resolves the device: optional with one, named among several, unknown ids listed', async () => {
    const result = await runOperation(ctx, 'tap', { observe: 'none', x: 10, y: 20 });
    expect(result.output).toEqual({ tapped: { x: 10, y: 20 } });
    expect(result.summary).toBe('Tapped (10, 20).');
    expect(driver.callsOf('tap').map((c) => c.args[0])).toEqual([{ x: 10, y: 20 }]);

    hub.register({ id: 'phone-b', driver: new FakeDriver() });
    const ambiguous = await rejectionOf(runOperation(ctx, 'tap', { x: 10, y: 20 }));
    expect(ambiguous.code).toBe('invalid_argument');
    expect(`${ambiguous.message} ${ambiguous.hint}`).toMatch(/phone-a.*phone-b/);

    const unknown = await rejectionOf(runOperation(ctx, 'tap', { device: 'nope', x: 10, y: 20 }));
    expect(unknown.code).toBe('device_not_found');
    expect(`${unknown.message} ${unknown.hint}`).toMatch(/phone-a/);
  });

  it('checks coordinates against the real screen', async () => {
    const error = await rejectionOf(runOperation(ctx, 'tap', { x: 500, y: 20 }));
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toMatch(/390×844/);
    expect(driver.callsOf('tap')).toEqual([]);
  });

  it('runs the simple operations and validates their output', async () => {
    expect((await runOperation(ctx, 'list_devices', {})).output).toEqual({
      devices: [{ id: 'phone-a', name: 'Phone A', platform: 'ios', state: 'online' }],
    });
    const status = await runOperation(ctx, 'device_status', { device: 'phone-a' });
    expect(status.output).toMatchObject({ id: 'phone-a', state: 'online', screen: { width: 390, height: 844, scale: 3 } });
    expect((await runOperation(ctx, 'swipe', { observe: 'none', direction: 'up' })).output).toEqual({ direction: 'up' });
    expect((await runOperation(ctx, 'input_text', { observe: 'none', text: 'hé🙂', submit: true })).output).toEqual({
      typedCharacters: 3,
      submitted: true,
    });
    expect((await runOperation(ctx, 'terminate_app', { observe: 'none', appId: 'com.example.fake' })).output).toEqual({
      appId: 'com.example.fake',
      wasRunning: true,
    });
    expect((await runOperation(ctx, 'press_button', { observe: 'none', button: 'home' })).summary).toBe('Pressed home.');
    expect((await runOperation(ctx, 'list_apps', {})).output).toEqual({ apps: [{ appId: 'com.example.fake', running: true }], complete: false });
  });

  it('a default tap answers what the screen shows after it: typed, its text once at the end of the summary', async () => {
    const result = await runOperation(ctx, 'tap', { x: 10, y: 20 });
    expect(result.output).toEqual({ tapped: { x: 10, y: 20 }, observed: { keyboardVisible: false } });
    expect(result.actionSummary).toBe('Tapped (10, 20).');
    expect(result.summary).toBe('Tapped (10, 20).\nNow: unknown app.');
    expect(result.screen).toBeUndefined();
    // One tree read after the tap, and no handler saw `observe`.
    const after = driver.calls.slice(driver.calls.findIndex((c) => c.method === 'tap') + 1).map((c) => c.method);
    expect(after.filter((m) => m === 'uiTree')).toHaveLength(1);
  });

  it('describe_screen answers its whole description once: the summary is its text', async () => {
    const result = await runOperation(ctx, 'describe_screen', { includeOcrText: false });
    expect(result.screen?.text).toBe(result.summary);
    expect(result.output).toMatchObject({ elements: expect.any(Array), keyboardVisible: false });
    expect(result.output).not.toHaveProperty('text');
  });

  it('observe "describe" describes the settled tree it read (no third read); observeWithOcr false reads no pixels', async () => {
    const result = await runOperation(ctx, 'tap', { x: 10, y: 20, observe: 'describe' }, undefined, { observeWithOcr: false });
    expect(result.output['observed']).toMatchObject({ keyboardVisible: false, screen: { elements: expect.any(Array), ocrText: [] } });
    expect(result.screen?.elements).toEqual(expect.any(Array));
    expect(result.summary).toBe(`${result.actionSummary}\n${result.screen?.text}`);
    const after = driver.calls.slice(driver.calls.findIndex((c) => c.method === 'tap') + 1).map((c) => c.method);
    // The first look after the tap, then one more until two agree: that second tree is the one described.
    expect(after.filter((m) => m === 'uiTree')).toHaveLength(2);
    expect(after).not.toContain('screenshot');
  });

  it('turns a non-semantic failure into a neutral internal error', async () => {
    driver.behave('tap', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    const error = await rejectionOf(runOperation(ctx, 'tap', { x: 1, y: 1 }));
    expect(['internal', 'device_error']).toContain(error.code);
    expect(error.message).not.toMatch(/Cannot read/);
  });

  describe('take_screenshot', () => {
    /** Random pixels compress badly: the worst case for the 1 MB limit. */
    async function noisyPng(width: number, height: number): Promise<Buffer> {
      return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer();
    }
    async function noisyScreen(): Promise<Buffer> {
      const width = 390 * 3;
      const height = 844 * 3;
      const png = await noisyPng(width, height);
      driver.behave('screenshot', async () => ({ png, width, height, scale: 3 }));
      return png;
    }

    it('defaults to a JPEG at one pixel per point, with the bytes beside the structured output', async () => {
      await noisyScreen();
      const result = await runOperation(ctx, 'take_screenshot', {});
      expect(result.output).toMatchObject({ format: 'jpeg', mimeType: 'image/jpeg', width: 390, height: 844, pixelsPerPoint: 1 });
      expect(result.image?.mimeType).toBe('image/jpeg');
      expect(result.output.bytes).toBe(result.image?.data.length);
      expect(imageOf(result).data.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
      expect(result.summary).toMatch(/390×844 JPEG.*1 image pixel = 1 point/);
      const meta = await sharp(imageOf(result).data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 390, 844]);
    });

    it('shrinks a native PNG until it fits under 1 MB from one capture, and says how pixels map to points', async () => {
      const png = await noisyScreen();
      expect(png.length).toBeGreaterThan(MAX_SCREENSHOT_BYTES);
      const result = await runOperation(ctx, 'take_screenshot', { format: 'png', resolution: 'native' });
      expect(driver.callsOf('screenshot')).toHaveLength(1);
      expect(imageOf(result).data.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
      expect(result.output.format).toBe('png');
      expect(result.output.width).toBeLessThan(1170);
      expect(result.output.pixelsPerPoint).toBeCloseTo((result.output.width as number) / 390, 6);
      expect(result.summary).toMatch(/1 point = [\d.]+ image pixels/);
      expect(Buffer.from(imageOf(result).data).toString('base64').length).toBeLessThan(1_000_000);
    });

    it('re-encodes a native JPEG that is too big at quality 80 from the same capture', async () => {
      const png = await noisyScreen();
      const atDefaultQuality = await sharp(png).resize(924, 2000, { fit: 'fill' }).jpeg({ quality: 80 }).toBuffer();
      expect(atDefaultQuality.length).toBeGreaterThan(MAX_SCREENSHOT_BYTES);
      const result = await runOperation(ctx, 'take_screenshot', { resolution: 'native' });
      expect(driver.callsOf('screenshot')).toHaveLength(1);
      expect(result.output).toMatchObject({ format: 'jpeg', mimeType: 'image/jpeg' });
      expect(imageOf(result).data.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
      const meta = await sharp(imageOf(result).data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', result.output.width, result.output.height]);
    });

    it('keeps every side within 2,000 pixels', async () => {
      const png = await sharp({ create: { width: 1290, height: 2796, channels: 3, background: '#336699' } }).png().toBuffer();
      driver.behave('screenshot', async () => ({ png, width: 1290, height: 2796, scale: 3 }));
      const result = await runOperation(ctx, 'take_screenshot', { format: 'png', resolution: 'native' });
      expect(result.output).toMatchObject({ width: 922, height: 1998 });
      expect(Math.max(result.output.width as number, result.output.height as number)).toBeLessThanOrEqual(MAX_SCREENSHOT_SIDE);
      expect(result.output.pixelsPerPoint).toBeCloseTo(922 / 430, 6);
      const meta = await sharp(imageOf(result).data).metadata();
      expect([meta.width, meta.height]).toEqual([922, 1998]);
    });

    it('reuses the last encoding while the phone sends byte-identical PNG, and encodes again when it changes', async () => {
      await noisyScreen();
      const encoder = screenshotEncoderOf(hub);
      const first = await runOperation(ctx, 'take_screenshot', {});
      const second = await runOperation(ctx, 'take_screenshot', {});
      expect(encoder.stats()).toEqual({ encodes: 1, reuses: 1 });
      expect(imageOf(second).data.equals(imageOf(first).data)).toBe(true);
      expect(driver.callsOf('screenshot')).toHaveLength(2);
      // Asked another way: a new encoding of the same capture.
      await runOperation(ctx, 'take_screenshot', { maxWidth: 200 });
      expect(encoder.stats()).toEqual({ encodes: 2, reuses: 1 });
      await noisyScreen();
      const changed = await runOperation(ctx, 'take_screenshot', {});
      expect(encoder.stats()).toEqual({ encodes: 3, reuses: 1 });
      expect(imageOf(changed).data.equals(imageOf(first).data)).toBe(false);
    });

    it('hands back the native PNG byte for byte for png at native resolution (within the size limits)', async () => {
      const png = await sharp({ create: { width: 750, height: 1334, channels: 4, background: '#336699' } }).png().toBuffer();
      driver.behave('screenshot', async () => ({ png, width: 750, height: 1334, scale: 2 }));
      const result = await runOperation(ctx, 'take_screenshot', { format: 'png', resolution: 'native' });
      expect(imageOf(result).data.equals(png)).toBe(true);
      expect(result.output).toMatchObject({ format: 'png', width: 750, height: 1334, pixelsPerPoint: 2 });
    });

    it('honours maxWidth', async () => {
      await noisyScreen();
      const result = await runOperation(ctx, 'take_screenshot', { format: 'png', maxWidth: 195 });
      expect(result.output).toMatchObject({ width: 195, pixelsPerPoint: 0.5 });
    });
  });
});

describe('encodeScreenshot', () => {
  function capture(png: Buffer, width: number, height: number): CapturedScreen {
    return { png, width, height, scale: 1, screen: { width, height, scale: 1 } };
  }

  it('hands back the captured PNG itself when it already fits', async () => {
    const png = await sharp({ create: { width: 300, height: 600, channels: 3, background: '#fff' } }).png().toBuffer();
    const shot = await encodeScreenshot(capture(png, 300, 600), { format: 'png', resolution: 'native' });
    expect(shot.data).toBe(png);
    expect(shot).toMatchObject({ format: 'png', mimeType: 'image/png', width: 300, height: 600, pixelsPerPoint: 1 });
  });

  it('lowers the JPEG quality before it makes the image narrower', async () => {
    const png = await sharp(randomBytes(300 * 600 * 3), { raw: { width: 300, height: 600, channels: 3 } }).png().toBuffer();
    const [q40, q60] = await Promise.all([40, 60].map((quality) => sharp(png).jpeg({ quality }).toBuffer()));
    expect(q40.length).toBeLessThan(q60.length);
    const maxBytes = Math.floor((q40.length + q60.length) / 2);
    const shot = await encodeScreenshot(capture(png, 300, 600), { format: 'jpeg', resolution: 'native' }, { maxBytes, maxSide: 2_000 });
    expect(shot).toMatchObject({ format: 'jpeg', width: 300, height: 600 });
    expect(shot.data.length).toBeLessThanOrEqual(maxBytes);
    expect(shot.data.length).toBeGreaterThan(maxBytes / 2);
  });
});
