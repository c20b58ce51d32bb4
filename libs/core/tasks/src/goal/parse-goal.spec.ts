import { parseGoal } from './parse-goal';
import type { Intent } from './intents';

function intents(goal: string): Intent[] {
  const result = parseGoal(goal);
  if (!result.ok) throw new Error(`did not parse: ${result.message}`);
  return result.intents;
}

describe('parseGoal', () => {
  it.each<[string, Intent[]]>([
    ['open Settings', [{ kind: 'open', app: 'Settings' }]],
    ['Launch the Maps app', [{ kind: 'open', app: 'Maps' }]],
    ['go to Settings', [{ kind: 'open', app: 'Settings' }]],
    ['tap General', [{ kind: 'tap', target: 'General' }]],
    ['Press the Done button', [{ kind: 'tap', target: 'Done' }]],
    ['turn on Airplane Mode', [{ kind: 'toggle', target: 'Airplane Mode', on: true }]],
    ['Turn Wi-Fi off', [{ kind: 'toggle', target: 'Wi-Fi', on: false }]],
    ['disable the Bluetooth switch', [{ kind: 'toggle', target: 'Bluetooth', on: false }]],
    ['type hello in Notes', [{ kind: 'type', text: 'hello', into: 'Notes', submit: false }]],
    ['type "milk and eggs, then bread" into the Notes app', [{ kind: 'type', text: 'milk and eggs, then bread', into: 'Notes', submit: false }]],
    ['Type hello world', [{ kind: 'type', text: 'hello world', into: undefined, submit: false }]],
    ['type cats in the search field and press return', [{ kind: 'type', text: 'cats', into: 'search', submit: true }]],
    ['scroll down', [{ kind: 'scroll', direction: 'down', finger: 'up' }]],
    ['SWIPE LEFT', [{ kind: 'scroll', direction: 'left', finger: 'left' }]],
    ['go home', [{ kind: 'home' }]],
    ['Go to the home screen', [{ kind: 'home' }]],
    ['press home', [{ kind: 'home' }]],
    ['go back', [{ kind: 'back' }]],
  ])('%s', (goal, expected) => {
    expect(intents(goal)).toEqual(expected);
  });

  it('splits sequences on then, and, commas and full stops', () => {
    expect(intents('Open Settings, tap General then tap About and go home. Go back')).toEqual([
      { kind: 'open', app: 'Settings' },
      { kind: 'tap', target: 'General' },
      { kind: 'tap', target: 'About' },
      { kind: 'home' },
      { kind: 'back' },
    ]);
    expect(intents('open settings and then turn off wi-fi')).toEqual([
      { kind: 'open', app: 'settings' },
      { kind: 'toggle', target: 'wi-fi', on: false },
    ]);
  });

  it('repeats a toggle for a bare second target', () => {
    expect(intents('turn on Wi-Fi and Bluetooth')).toEqual([
      { kind: 'toggle', target: 'Wi-Fi', on: true },
      { kind: 'toggle', target: 'Bluetooth', on: true },
    ]);
  });

  it.each(['book me a flight to Paris', 'what is the weather like tomorrow in Lisbon', 'open Settings then make it pretty please'])(
    'refuses %s and names the clause',
    (goal) => {
      const result = parseGoal(goal);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(goal.toLowerCase()).toContain(result.clause.toLowerCase());
        expect(result.message).toMatch(/offline planner understands/);
      }
    },
  );

  it('refuses an empty goal', () => {
    expect(parseGoal('  , then ').ok).toBe(false);
  });
});
