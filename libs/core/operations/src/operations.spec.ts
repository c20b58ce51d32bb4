import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import {
  DEVICE_OPERATIONS,
  MAX_SCREENSHOT_BYTES,
  defineOperation,
  inputJsonSchema,
  outputJsonSchema,
  runOperation,
  type ImageAttachment,
  type OperationAnnotations,
  type OperationResult,
  type OperationContext,
} from './index';
import { z } from 'zod';
import { rejectionOf } from '@apex/errors/testing';

function imageOf(result: OperationResult): ImageAttachment {
  if (!result.image) throw new Error('expected an image');
  return result.image;
}


describe('the catalog', () => {
  const ANNOTATION_KEYS: (keyof OperationAnnotations)[] = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

  it('has the fourteen device operations, each named once in snake_case', () => {
    const names = DEVICE_OPERATIONS.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(
      [
        'list_devices',
        'device_status',
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
    expect(outputJsonSchema(op).type).toBe('object');
    if ('device' in op.input.shape) expect(input.required ?? []).not.toContain('device');
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

  it('lists every bad field of an invalid input before reaching a device', async () => {
    const error = await rejectionOf(runOperation(ctx, 'tap', { x: -1, z: 3 }));
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toMatch(/^Invalid tap arguments: /);
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['x', 'y', 'z']);
    expect(driver.calls).toEqual([]);
  });

  const badInputs: [string, unknown, string][] = [
    ['tap', { x: Number.NaN, y: 1 }, 'x'],
    ['tap', { x: 1, y: Number.POSITIVE_INFINITY }, 'y'],
    ['tap', { x: '1', y: 1 }, 'x'],
    ['input_text', { text: '' }, 'text'],
    ['input_text', { text: 'x'.repeat(2001) }, 'text'],
    ['launch_app', { appId: '' }, 'appId'],
    ['launch_app', { appId: 'com.x; rm -rf /' }, 'appId'],
    ['terminate_app', { appId: 'a'.repeat(300) }, 'appId'],
    ['press_button', { button: 'power' }, 'button'],
    ['take_screenshot', { format: 'gif' }, 'format'],
    ['take_screenshot', { maxWidth: 10 }, 'maxWidth'],
    ['find_icon', {}, 'name'],
    ['swipe', { direction: 'up', from: { x: 1, y: 1 } }, 'from'],
    ['swipe', {}, 'direction'],
    ['device_status', { device: '' }, 'device'],
    // As REST refuses them in a path, so that both faces give the same answer.
    ['device_status', { device: 'phone-a\u001b[2J' }, 'device'],
    ['tap', { device: '\u0000', x: 1, y: 1 }, 'device'],
  ];
  it.each(badInputs.map(([name, input, path]) => [name, path, input] as const))('%s rejects a bad %s', async (name, path, input) => {
    const error = await rejectionOf(runOperation(ctx, name, input));
    expect(error.code).toBe('invalid_argument');
    expect(error.issues?.map((i) => i.path)).toContain(path);
    expect(driver.calls.filter((c) => c.method !== 'status')).toEqual([]);
  });

  it('rejects a non-object input as a whole', async () => {
    const error = await rejectionOf(runOperation(ctx, 'tap', 'tap at 3,4'));
    expect(error.code).toBe('invalid_argument');
  });

  it('resolves the device: optional with one, named among several, unknown ids listed', async () => {
    const result = await runOperation(ctx, 'tap', { x: 10, y: 20 });
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
    expect((await runOperation(ctx, 'swipe', { direction: 'up' })).output).toEqual({ direction: 'up' });
    expect((await runOperation(ctx, 'input_text', { text: 'hé🙂', submit: true })).output).toEqual({
      typedCharacters: 3,
      submitted: true,
    });
    expect((await runOperation(ctx, 'terminate_app', { appId: 'com.example.fake' })).output).toEqual({
      appId: 'com.example.fake',
      wasRunning: true,
    });
    expect((await runOperation(ctx, 'press_button', { button: 'home' })).summary).toBe('Pressed home.');
    expect((await runOperation(ctx, 'list_apps', {})).output).toEqual({ apps: [{ appId: 'com.example.fake', running: true }] });
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
    async function noisyScreen(): Promise<void> {
      const width = 390 * 3;
      const height = 844 * 3;
      const png = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer();
      driver.behave('screenshot', async () => ({ png, width, height, scale: 3 }));
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

    it('shrinks a native PNG until it fits under 1 MB, and says how pixels map to points', async () => {
      await noisyScreen();
      const result = await runOperation(ctx, 'take_screenshot', { format: 'png', scale: 'native' });
      expect(imageOf(result).data.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
      expect(result.output.format).toBe('png');
      expect(result.output.width).toBeLessThan(1170);
      expect(result.summary).toMatch(/1 point = [\d.]+ image pixels/);
      expect(Buffer.from(imageOf(result).data).toString('base64').length).toBeLessThan(1_000_000);
    });

    it('honours maxWidth', async () => {
      await noisyScreen();
      const result = await runOperation(ctx, 'take_screenshot', { format: 'png', maxWidth: 195 });
      expect(result.output).toMatchObject({ width: 195, pixelsPerPoint: 0.5 });
    });
  });
});
