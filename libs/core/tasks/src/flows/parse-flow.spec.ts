import { rejectionOf } from '@apex/errors/testing';
import { parseFlowObject, parseFlowYaml } from './parse-flow';

const errorOf = async (run: () => unknown) => rejectionOf(Promise.resolve().then(run));

describe('parseFlowYaml', () => {
  it('reads the steps in the words of the catalog, shorthand and full forms alike', () => {
    const flow = parseFlowYaml(
      [
        'name: Demo',
        'app: Settings',
        'steps:',
        '  - tap: General',
        '  - tap: { label: Back, role: button }',
        '  - long_press: { selector: { icon: trash }, durationMs: 900 }',
        '  - type: { text: hello, into: Search, submit: true }',
        '  - swipe: up',
        '  - scroll_until: { text: About, maxSwipes: 3 }',
        '  - handle_alert: { press: Allow }',
        '  - wait_for: { text: Done, gone: true, timeoutMs: 100 }',
        '  - assert_not_visible: Error',
      ].join('\n'),
    );
    expect(flow.app).toBe('Settings');
    expect(flow.steps).toEqual([
      { kind: 'tap', args: { text: 'General' } },
      { kind: 'tap', args: { label: 'Back', role: 'button' } },
      { kind: 'long_press', args: { selector: { icon: 'trash' }, durationMs: 900 } },
      { kind: 'type', args: { text: 'hello', into: { text: 'Search' }, submit: true } },
      { kind: 'swipe', args: { direction: 'up' } },
      { kind: 'scroll_until', args: { text: 'About', maxSwipes: 3 } },
      { kind: 'handle_alert', args: { action: 'press', button: 'Allow' } },
      { kind: 'wait_for', args: { text: 'Done', gone: true, timeoutMs: 100 } },
      { kind: 'assert_not_visible', args: { text: 'Error' } },
    ]);
  });

  it('fills ${name} from the caller over the flow\'s own vars, and refuses a variable with no value', async () => {
    const source = 'name: V\nvars: { who: Ann, what: x }\nsteps:\n  - type: "${who} ${what}"\n';
    expect(parseFlowYaml(source, { who: 'Bob' }).steps[0]).toEqual({ kind: 'type', args: { text: 'Bob x' } });
    const missing = await errorOf(() => parseFlowYaml('name: V\nsteps:\n  - tap: ${nope}\n'));
    expect(missing).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('nope') });
  });

  it('names the line and column of a YAML syntax error', async () => {
    const error = await errorOf(() => parseFlowYaml('name: Broken\nsteps:\n  - tap: [General\n'));
    expect(error).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/not valid YAML: line \d+, column \d+/) });
  });

  it('names the line and column of a step the schema refuses, and every kind it knows for an unknown one', async () => {
    const error = await errorOf(() => parseFlowYaml('name: Bad\nsteps:\n  - tap: General\n  - tapp: About\n  - swipe: sideways\n'));
    expect(error.code).toBe('invalid_argument');
    const issues = (error.issues ?? []).map((i) => i.message);
    expect(issues).toEqual(
      expect.arrayContaining([expect.stringMatching(/^line 4, column 5: unknown step "tapp": use one of launch, tap, /), expect.stringMatching(/^line 5, column \d+: /)]),
    );
  });

  it('refuses a selector that names the element twice, and an empty flow', async () => {
    expect((await errorOf(() => parseFlowYaml('name: S\nsteps:\n  - tap: { text: A, point: { x: 1, y: 2 } }\n'))).code).toBe('invalid_argument');
    expect((await errorOf(() => parseFlowYaml('name: S\nsteps: []\n'))).code).toBe('invalid_argument');
    expect((await errorOf(() => parseFlowYaml('- just\n- a list\n'))).code).toBe('invalid_argument');
  });
});

describe('parseFlowObject', () => {
  it('takes the same flow as an object, with the same errors (without positions)', async () => {
    expect(parseFlowObject({ name: 'O', steps: [{ press: 'home' }] }).steps).toEqual([{ kind: 'press', args: 'home' }]);
    const error = await errorOf(() => parseFlowObject({ name: 'O', steps: [{ press: 'power' }] }));
    expect(error).toMatchObject({ code: 'invalid_argument', issues: [expect.objectContaining({ path: 'steps.0.press' })] });
  });
});
