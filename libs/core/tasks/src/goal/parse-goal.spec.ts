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
    ['open Chrome and go to apex.example', [{ kind: 'open', app: 'Chrome' }, { kind: 'visit', url: 'https://apex.example' }]],
    ['visit https://apex.example/docs', [{ kind: 'visit', url: 'https://apex.example/docs' }]],
    ['go to news.site/today', [{ kind: 'visit', url: 'https://news.site/today' }]],
    ['allow Maps only this time', [{ kind: 'open', app: 'Maps' }, { kind: 'answer', words: 'allow only this time' }]],
    ['allow the Maps app while using the app', [{ kind: 'open', app: 'Maps' }, { kind: 'answer', words: 'allow while using the app' }]],
    ['allow only this time', [{ kind: 'answer', words: 'allow only this time' }]],
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

  it.each<[string, Intent[]]>([
    ['open settings, then general, then about', [{ kind: 'open', app: 'settings' }, { kind: 'open', app: 'general' }, { kind: 'open', app: 'about' }]],
    ['go to Settings > General > About', [{ kind: 'open', app: 'Settings' }, { kind: 'tap', target: 'General' }, { kind: 'tap', target: 'About' }]],
    ['Settings → General', [{ kind: 'open', app: 'Settings' }, { kind: 'tap', target: 'General' }]],
    ['In Settings, open Privacy & Security', [{ kind: 'open', app: 'Settings' }, { kind: 'open', app: 'Privacy & Security' }]],
    ['in settings open battery', [{ kind: 'open', app: 'settings' }, { kind: 'open', app: 'battery' }]],
    ['Please open Maps', [{ kind: 'open', app: 'Maps' }]],
    ['Could you turn off Wi-Fi for me?', [{ kind: 'toggle', target: 'Wi-Fi', on: false }]],
    ['open Photos and tap the trash icon', [{ kind: 'open', app: 'Photos' }, { kind: 'tap', target: 'trash' }]],
    [
      'scroll down in Settings until you see Wallpaper, then open it',
      [{ kind: 'open', app: 'Settings' }, { kind: 'find', target: 'Wallpaper', direction: 'down' }, { kind: 'tap', target: 'Wallpaper' }],
    ],
    ['scroll up until Airplane Mode appears', [{ kind: 'find', target: 'Airplane Mode', direction: 'up' }]],
    ['turn it on', []],
    ['go back to General', [{ kind: 'back', to: 'General' }]],
    ['go back to the home screen', [{ kind: 'home' }]],
    ['trun off bluetooth', [{ kind: 'toggle', target: 'bluetooth', on: false }]],
    ['opne Notes', [{ kind: 'open', app: 'Notes' }]],
    ["open Maps, then don't allow", [{ kind: 'open', app: 'Maps' }, { kind: 'answer', words: "don't allow" }]],
    ['open maps and allow once', [{ kind: 'open', app: 'maps' }, { kind: 'answer', words: 'allow once' }]],
  ])('understands %s', (goal, expected) => {
    if (expected.length === 0) expect(parseGoal(goal).ok).toBe(false);
    else expect(intents(goal)).toEqual(expected);
  });

  it('refers "it" to what the clause before named', () => {
    expect(intents('open Settings, tap General, then tap it')).toEqual([
      { kind: 'open', app: 'Settings' },
      { kind: 'tap', target: 'General' },
      { kind: 'tap', target: 'General' },
    ]);
    expect(intents('find Bluetooth and turn it off')).toEqual([
      { kind: 'find', target: 'Bluetooth', direction: 'down' },
      { kind: 'toggle', target: 'Bluetooth', on: false },
    ]);
    const nothing = parseGoal('tap it');
    expect(nothing.ok).toBe(false);
    if (!nothing.ok) expect(nothing.message).toMatch(/what "it" is/);
  });

  it.each(['turn on wifi and make coffee', 'open Notes, then do my taxes'])('refuses a bare clause that is no name: %s', (goal) => {
    expect(parseGoal(goal).ok).toBe(false);
  });

  it('refuses an empty goal', () => {
    expect(parseGoal('  , then ').ok).toBe(false);
  });
});
