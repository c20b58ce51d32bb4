import { z } from 'zod';
import { isApexError } from '@apex/errors';
import { defineOperation, TOOLSETS } from './define-operation';
import { DEVICE_OPERATIONS } from './operations';
import { DEFAULT_TOOLSETS, operationsIn, resolveToolsets, splitToolsetList, TOOLSET_DESCRIPTIONS } from './toolsets';

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isApexError(error)) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('toolsets', () => {
  it('puts every device operation in one of the toolsets, each of which is described', () => {
    for (const op of DEVICE_OPERATIONS) expect(TOOLSETS).toContain(op.toolset);
    for (const toolset of TOOLSETS) expect(TOOLSET_DESCRIPTIONS[toolset].length).toBeGreaterThan(10);
  });

  it('the type requires a toolset on every operation', () => {
    // @ts-expect-error toolset is missing
    const missing = () => defineOperation({
        name: 'x',
        title: 'X',
        description: 'x',
        input: z.strictObject({}),
        output: z.object({}),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        handler: async () => ({}),
      });
    expect(missing).toBeDefined();
  });

  it('expands default and all, drops duplicates and keeps the TOOLSETS order', () => {
    expect(resolveToolsets(['default'])).toEqual([...DEFAULT_TOOLSETS]);
    expect(resolveToolsets(['all'])).toEqual([...TOOLSETS]);
    expect(resolveToolsets(['apps', 'default', 'observe'])).toEqual(['devices', 'observe', 'act', 'apps']);
    expect(resolveToolsets(splitToolsetList(' gestures , ,tasks '))).toEqual(['gestures', 'tasks']);
  });

  it('refuses an unknown name or an empty list, naming where it came from and the valid names', () => {
    const unknown = errorOf(() => resolveToolsets(['observe', 'tapping'], '--toolsets'));
    expect(unknown.code).toBe('invalid_argument');
    expect(unknown.message).toBe(
      '--toolsets: unknown toolset "tapping"; valid: devices, observe, act, inspect, gestures, apps, environment, evidence, tasks, flows, default, all.',
    );
    const empty = errorOf(() => resolveToolsets(splitToolsetList(' , '), 'APEX_TOOLSETS'));
    expect(empty.code).toBe('invalid_argument');
    expect(empty.message).toMatch(/^APEX_TOOLSETS names no toolset; valid: devices, /);
    expect(errorOf(() => resolveToolsets(['x'.repeat(10_000)])).message.length).toBeLessThan(300);
  });

  it('selects the operations of some toolsets in catalog order', () => {
    expect(operationsIn(DEVICE_OPERATIONS, ['gestures']).map((op) => op.name)).toEqual(['double_tap', 'long_press', 'pinch']);
    expect(operationsIn(DEVICE_OPERATIONS, DEFAULT_TOOLSETS).map((op) => op.name)).toEqual([
      'list_devices',
      'device_status',
      'wait_for_device',
      'describe_screen',
      'take_screenshot',
      'find_text',
      'wait_for',
      'tap',
      'swipe',
      'input_text',
      'hide_keyboard',
      'press_button',
      'handle_alert',
      'launch_app',
    ]);
  });
});
