import type { ScreenDescriptionResult } from '@apex/perception';
import { observationOf } from '../agent/observation';
import type { Task, TaskStep } from '../model/task';
import { exportFlow } from './export-flow';
import { targetOf } from './step-target';

type Element = ScreenDescriptionResult['elements'][number];

function screenOf(elements: Partial<Element>[]): ReturnType<typeof observationOf> {
  const full = elements.map((e, i) => ({ ref: `e${i + 1}`, role: 'cell', center: { x: 0, y: 0 }, ...e }) as Element);
  return observationOf({ screen: { width: 393, height: 852, scale: 3 }, orientation: 'portrait', keyboardVisible: false, elements: full, omittedElements: 0, staticText: [], ocrText: [] } as unknown as ScreenDescriptionResult);
}

describe('targetOf: the most robust selector for the element an action touched', () => {
  const tap = (x: number, y: number) => ({ operation: 'tap', arguments: { x, y } });

  it('names it by its text when that picks it alone, by label and role when the text is shared, by role and index last', () => {
    const screen = screenOf([
      { role: 'button', label: 'General', center: { x: 40, y: 60 } },
      { role: 'text', label: 'General', center: { x: 196, y: 60 } },
      { role: 'cell', label: 'About', center: { x: 196, y: 140 } },
      { role: 'switch', center: { x: 330, y: 200 } },
      { role: 'switch', center: { x: 330, y: 250 } },
    ]);
    expect(targetOf(tap(196, 140), screen)).toEqual({ text: 'About' });
    expect(targetOf(tap(40, 60), screen)).toEqual({ label: 'General', role: 'button' });
    expect(targetOf(tap(330, 250), screen)).toEqual({ role: 'switch', index: 1 });
  });

  it('gives none where no element has its centre at the point, and for actions without a point', () => {
    const screen = screenOf([{ label: 'About', center: { x: 196, y: 140 } }]);
    expect(targetOf(tap(10, 10), screen)).toBeUndefined();
    expect(targetOf({ operation: 'swipe', arguments: { direction: 'up' } }, screen)).toBeUndefined();
  });
});

describe('exportFlow', () => {
  const step = (index: number, operation: string, args: Record<string, unknown>, extra: Partial<TaskStep> = {}): TaskStep => ({
    index,
    observation: '',
    action: { operation, arguments: args },
    outcome: { status: 'ok', detail: '' },
    durationMs: 1,
    ...extra,
  });
  const task = (steps: TaskStep[]): Task => ({ id: 't1', deviceId: 'd', goal: 'do things', status: 'succeeded', planner: 'offline', maxSteps: 20, timeoutMs: 1000, createdAt: '', steps });

  it('turns each action into the step of the same meaning; redacted text becomes a variable; failures and look-ups are left out', () => {
    const { flow, variables, skipped } = exportFlow(
      task([
        step(0, 'launch_app', { appId: 'com.apple.Preferences' }),
        step(1, 'tap', { x: 1, y: 2 }, { target: { text: 'General' } }),
        step(2, 'tap', { x: 5, y: 6 }),
        step(3, 'find_text', { text: 'About' }),
        step(4, 'input_text', { text: '•••', length: 4 }),
        step(5, 'swipe', { from: { x: 10, y: 500 }, to: { x: 12, y: 100 } }),
        step(6, 'tap', { x: 9, y: 9 }, { outcome: { status: 'error', detail: 'gone' } }),
        step(7, 'set_lock', { locked: true }),
        step(8, 'handle_alert', { action: 'press', button: 'Allow' }),
      ]),
    );
    expect(flow.steps).toEqual([
      { launch: 'com.apple.Preferences' },
      { tap: 'General' },
      { tap: { point: { x: 5, y: 6 } } },
      { type: '${text1}' },
      { swipe: 'up' },
      { handle_alert: { press: 'Allow' } },
    ]);
    expect(variables).toEqual(['text1']);
    expect(skipped).toEqual(['step 7 (tap): it failed', 'step 8 (set_lock): flows have no step for it']);
  });

  it('keeps the waits a task asked for (text to appear or go) and deliberate repeats; a wait for the screen to settle needs no step', () => {
    const { flow, skipped } = exportFlow(
      task([
        step(0, 'tap', { x: 1, y: 2 }, { target: { text: 'Next' } }),
        step(1, 'wait_for', { text: 'Step 2', timeoutMs: 8_000 }),
        step(2, 'tap', { x: 1, y: 2 }, { target: { text: 'Next' } }),
        step(3, 'wait_for', { text: 'Loading', gone: true }),
        step(4, 'wait_for', { stable: true }),
      ]),
    );
    expect(flow.steps).toEqual([{ tap: 'Next' }, { wait_for: { text: 'Step 2', timeoutMs: 8_000 } }, { tap: 'Next' }, { wait_for: { text: 'Loading', gone: true } }]);
    expect(skipped).toEqual([]);
  });

  it('refuses a task that has not finished (its flow would replay less than it does)', () => {
    for (const status of ['queued', 'running'] as const) {
      expect(() => exportFlow({ ...task([step(0, 'launch_app', { name: 'Settings' })]), status })).toThrow(
        expect.objectContaining({ code: 'invalid_argument', message: `Task t1 is ${status}: a flow is exported from a finished task.` }),
      );
    }
  });
});
