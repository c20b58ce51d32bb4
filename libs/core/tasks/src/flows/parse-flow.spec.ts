import { rejectionOf } from '@apex/errors/testing';
import { parseFlowObject, parseFlowYaml } from './parse-flow';

const errorOf = async (run: () => unknown) => rejectionOf(Promise.resolve().then(run));

describe('parseFlowYaml', () => {
  it('reads the steps in the words of the catalog, shorthand and full forms alike', async () => {
    const flow = await parseFlowYaml(
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
    expect((await parseFlowYaml(source, { who: 'Bob' })).steps[0]).toEqual({ kind: 'type', args: { text: 'Bob x' } });
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
    const issues = (error.issues ?? []).map((i: { message: string }) => i.message);
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
    expect((await parseFlowObject({ name: 'O', steps: [{ press: 'home' }] })).steps).toEqual([{ kind: 'press', args: 'home' }]);
    const error = await errorOf(() => parseFlowObject({ name: 'O', steps: [{ press: 'power' }] }));
    expect(error).toMatchObject({ code: 'invalid_argument', issues: [expect.objectContaining({ path: 'steps.0.press' })] });
  });
});

describe('bad flow files are refused whole, with a line, off the event loop', () => {
  it('refuses a YAML alias bomb as invalid_argument naming the line of its first alias', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'name: Bomb',
      'steps: [*d]',
    ].join('\n');
    const error = await errorOf(() => parseFlowYaml(bomb));
    expect(error).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/not valid YAML: line 2, column \d+: its aliases expand to more than 50 nodes/) });
    const unresolved = await errorOf(() => parseFlowYaml('name: A\nsteps:\n  - tap: *nowhere\n'));
    expect(unresolved).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/not valid YAML: line 3/) });
  });

  it('refuses a file over 64 KB before reading it, and names duplicate keys (a linear check) with their line', async () => {
    const big = `name: Big\nsteps:\n${'  - tap: General\n'.repeat(4000)}`;
    expect(await errorOf(() => parseFlowYaml(big))).toMatchObject({ code: 'invalid_argument', message: 'The flow is larger than 64 KB.' });
    const twice = await errorOf(() => parseFlowYaml('name: D\nsteps:\n  - tap: { text: A, text: B }\n'));
    expect(twice).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/not valid YAML: line 3, column \d+: Map keys must be unique/) });
  });

  it('the worst files within the limit are read on another thread: the event loop turns while they are read', async () => {
    const room = 64 * 1024 - 100;
    // The shapes that cost most per byte: a map with thousands of keys, deep nesting, thousands of short items.
    const worst = [
      `name: W\nsteps:\n  - tap:\n${Array.from({ length: Math.floor(room / 16) }, (_, i) => `      k${i}: 1`).join('\n')}\n`.slice(0, room),
      `name: W\nsteps: ${'['.repeat(room / 2 - 10)}${']'.repeat(room / 2 - 10)}`,
      `name: W\nsteps: [${Array.from({ length: Math.floor(room / 2) - 10 }, () => 'a').join(',')}]`,
      `name: W\nsteps: [${Array.from({ length: Math.floor(room / 6) - 10 }, () => 'a: 1').join(', ')}]`,
    ];
    for (const flow of worst) expect(Buffer.byteLength(flow)).toBeLessThanOrEqual(64 * 1024);
    const reads = Promise.allSettled([...worst, ...worst].map((flow) => parseFlowYaml(flow)));
    // Ordering, not time: on the loop, all eight would be read (settled) before the loop could turn once.
    const first = await Promise.race([reads.then(() => 'read'), new Promise((resolve) => setImmediate(() => resolve('loop turned')))]);
    expect(first).toBe('loop turned');
    const results = await reads;
    expect(results.every((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'invalid_argument')).toBe(true);
  });

  it('refuses more than 200 steps before the schema reads each of them', async () => {
    const error = await errorOf(() => parseFlowObject({ name: 'Long', steps: Array.from({ length: 100_000 }, () => ({ tap: 'x' })) }));
    expect(error).toMatchObject({ code: 'invalid_argument', message: 'The flow has 100000 steps; a flow has at most 200.' });
  });
});

describe("every step is checked with its operation's own schema before anything runs", () => {
  it('refuses a javascript: URL, naming the step, its line and the field', async () => {
    const error = await errorOf(() => parseFlowYaml('name: U\napp: Settings\nsteps:\n  - tap: General\n  - open_url: "javascript:alert(1)"\n'));
    expect(error.code).toBe('invalid_argument');
    expect(error.issues).toEqual([{ path: 'steps.1.open_url.url', message: expect.stringMatching(/^line 5, column \d+: step 2 \(open_url\): url must not use the javascript: scheme/) }]);
    const filled = await errorOf(() => parseFlowObject({ name: 'U', steps: [{ open_url: '${where}' }] }, { where: 'file:///etc/passwd' }));
    expect(filled).toMatchObject({ code: 'invalid_argument', issues: [{ path: 'steps.0.open_url.url', message: expect.stringMatching(/^step 1 \(open_url\): url must not use the file: scheme/) }] });
  });

  it('checks the app to launch first too', async () => {
    const error = await errorOf(() => parseFlowObject({ name: 'L', app: '!!!', steps: [{ press: 'home' }] }));
    expect(error).toMatchObject({ code: 'invalid_argument', issues: [expect.objectContaining({ path: 'app.name', message: expect.stringMatching(/^app: name must contain at least one letter or digit/) })] });
  });
});
