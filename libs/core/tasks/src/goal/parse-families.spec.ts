import { parseGoal } from './parse-goal';
import type { Intent } from './intents';

function intents(goal: string): Intent[] {
  const result = parseGoal(goal);
  if (!result.ok) throw new Error(`did not parse: ${result.message}`);
  return result.intents;
}

function refusal(goal: string): string {
  const result = parseGoal(goal);
  if (result.ok) throw new Error(`parsed: ${JSON.stringify(result.intents)}`);
  return result.message;
}

const device = (operation: string, args: Record<string, unknown>): Partial<Intent> => ({ kind: 'device', operation: operation as never, arguments: args });

describe('parseGoal: the families of issue 38', () => {
  it.each<[string, Partial<Intent>[]]>([
    ['lock the phone', [device('set_lock', { locked: true })]],
    ['put my iPhone to sleep', [device('set_lock', { locked: true })]],
    ['unlock the device', [device('set_lock', { locked: false })]],
    ['rotate to landscape', [device('set_orientation', { orientation: 'landscape' })]],
    ['go portrait', [device('set_orientation', { orientation: 'portrait' })]],
    ['turn on dark mode', [device('set_appearance', { appearance: 'dark' })]],
    ['turn off dark mode', [device('set_appearance', { appearance: 'light' })]],
    ['switch to light mode', [device('set_appearance', { appearance: 'light' })]],
    ['copy "a, b and c" to the clipboard', [device('set_clipboard', { text: 'a, b and c' })]],
    ['hide the keyboard', [device('hide_keyboard', {})]],
    ['quit Maps', [{ kind: 'close', app: 'Maps' }]],
    ['open Notes and close it', [{ kind: 'open', app: 'Notes' }, { kind: 'close', app: 'Notes' }]],
    ['exit to the home screen', [{ kind: 'home' }]],
    ['long press the Maps icon', [{ kind: 'gesture', gesture: 'long_press', target: 'Maps' }]],
    ['double tap Photo 3', [{ kind: 'gesture', gesture: 'double_tap', target: 'Photo 3' }]],
    ['wait until Done appears', [{ kind: 'wait', target: 'Done', gone: false }]],
    ['wait for the spinner to disappear', [{ kind: 'wait', target: 'spinner', gone: true }]],
    ['close the alert', [{ kind: 'answer', words: 'dismiss' }]],
    ['in Safari go to apex.example/docs', [{ kind: 'open', app: 'Safari' }, { kind: 'visit', url: 'https://apex.example/docs' }]],
    ['open the timer in Clock', [{ kind: 'open', app: 'Clock' }, { kind: 'tab', tab: 'timer' }]],
    ['select the Radio tab', [{ kind: 'tab', tab: 'Radio' }]],
    ['mark Buy milk as done', [{ kind: 'mark', item: 'Buy milk', done: true, app: undefined }]],
    ['check off call the dentist', [{ kind: 'mark', item: 'call the dentist', done: true, app: undefined }]],
    ['mark "Buy milk" as not done', [{ kind: 'mark', item: 'Buy milk', done: false, app: undefined }]],
    ['send Ada a message saying running late', [{ kind: 'send', to: 'Ada', text: 'running late' }]],
    ["text Ada 'see you at six, ok?'", [{ kind: 'send', to: 'Ada', text: 'see you at six, ok?' }]],
    ["reply 'sounds good'", [{ kind: 'send', to: undefined, text: 'sounds good' }]],
    ['search Maps for coffee', [{ kind: 'search', app: 'Maps', query: 'coffee' }]],
    ['search for pizza in Maps', [{ kind: 'search', app: 'Maps', query: 'pizza' }]],
    ['turn Wi-Fi off but leave Bluetooth on', [{ kind: 'toggle', target: 'Wi-Fi', on: false }, { kind: 'keep', target: 'Bluetooth', on: true }]],
    ['turn off Bluetooth without changing anything else', [{ kind: 'toggle', target: 'Bluetooth', on: false }, { kind: 'keep' }]],
    ['what iOS version is this?', [{ kind: 'ask', read: 'os_version' }]],
    ['what is the model name?', [{ kind: 'ask', read: 'value', target: 'Model Name' }]],
    ['is Wi-Fi on?', [{ kind: 'ask', read: 'switch', target: 'Wi-Fi' }]],
    ['tell me if bluetooth is enabled', [{ kind: 'ask', read: 'switch', target: 'bluetooth' }]],
    ['how many reminders are left?', [{ kind: 'ask', read: 'count', target: 'reminders' }]],
    ['what is the serial number?', [{ kind: 'ask', read: 'value', target: 'serial number' }]],
  ])('%s', (goal, expected) => {
    const parsed = intents(goal);
    expect(parsed).toHaveLength(expected.length);
    expected.forEach((want, i) => expect(parsed[i]).toMatchObject(want));
  });

  it.each([
    ['call 911', 'emergency'],
    ['please text the ambulance "help"', 'emergency'],
    ['send $20 to Ada', 'money'],
    ['transfer money to Ada', 'money'],
    ['buy Minecraft in the App Store', 'purchases'],
    ['open the App Store and purchase the Pro plan', 'purchases'],
    ['delete all my photos', 'deleting data'],
    ['erase all content and settings', 'deleting data'],
  ])('refuses "%s" (%s) before anything runs', (goal, why) => {
    expect(refusal(goal)).toContain(why);
    expect(refusal(goal)).toContain('Nothing was touched');
  });

  it('keeps an item or a message whose words sound like a refusal: they are names and text, not actions', () => {
    expect(intents('mark Buy milk as done')).toEqual([{ kind: 'mark', item: 'Buy milk', done: true, app: undefined }]);
    expect(intents('text Ada "buy some bread"')).toEqual([{ kind: 'send', to: 'Ada', text: 'buy some bread' }]);
    expect(intents('type 5 dollars in Notes')).toEqual([{ kind: 'type', text: '5 dollars', into: 'Notes', submit: false }]);
  });

  it('still names the clause it did not understand', () => {
    expect(refusal('open Settings then make it pretty please')).toContain('"make it pretty"');
    expect(refusal('make me a sandwich')).toMatch(/^I cannot do "make me a sandwich" without a model\./);
  });
});

describe('parseGoal: families of phrasing, not lists of sentences', () => {
  const orientation = (to: 'landscape' | 'portrait'): Partial<Intent> => ({ kind: 'device', operation: 'set_orientation', arguments: { orientation: to } });
  it.each<[string, 'landscape' | 'portrait']>([
    ['rotate the screen to landscape', 'landscape'],
    ['turn the phone sideways', 'landscape'],
    ['hold the phone horizontally', 'landscape'],
    ['put it on its side', 'landscape'],
    ['set the screen orientation to landscape', 'landscape'],
    ['landscape mode', 'landscape'],
    ['rotate the phone', 'landscape'],
    ['make it portrait again', 'portrait'],
    ['go back to portrait', 'portrait'],
    ['switch the orientation to portrait', 'portrait'],
    ['flip the phone upright again', 'portrait'],
    ['turn the display vertical', 'portrait'],
    ['rotate it back', 'portrait'],
    ['undo the rotation', 'portrait'],
  ])('orientation: %s → %s', (goal, to) => {
    expect(intents(goal)).toEqual([expect.objectContaining(orientation(to))]);
  });

  it.each<[string, boolean]>([
    ['lock it', true],
    ['turn off the screen', true],
    ['unlock it', false],
    ['wake the phone up', false],
  ])('lock: %s', (goal, locked) => {
    expect(intents(goal)).toEqual([expect.objectContaining({ kind: 'device', operation: 'set_lock', arguments: { locked } })]);
  });

  it.each<[string, Partial<Intent>[]]>([
    ['in Reminders, complete Buy milk', [{ kind: 'open', app: 'Reminders' }, { kind: 'mark', item: 'Buy milk', done: true }]],
    ['finish Call the dentist', [{ kind: 'mark', item: 'Call the dentist', done: true }]],
    ['cross off Buy milk', [{ kind: 'mark', item: 'Buy milk', done: true }]],
    ['cross Buy milk off in Reminders', [{ kind: 'mark', item: 'Buy milk', done: true, app: 'Reminders' }]],
    ['Buy milk is done', [{ kind: 'mark', item: 'Buy milk', done: true }]],
    ['Call the dentist: done', [{ kind: 'mark', item: 'Call the dentist', done: true }]],
    ["I've finished Water the plants", [{ kind: 'mark', item: 'Water the plants', done: true }]],
    ['set Buy milk to done', [{ kind: 'mark', item: 'Buy milk', done: true }]],
    ['mark Buy milk off', [{ kind: 'mark', item: 'Buy milk', done: true }]],
    ['Buy milk is not done', [{ kind: 'mark', item: 'Buy milk', done: false }]],
    // "Done" is also a button: tapping it, or typing before it, is no item.
    ['tap Done', [{ kind: 'tap', target: 'Done' }]],
    ['type groceries, then tap done', [{ kind: 'type', text: 'groceries' }, { kind: 'tap', target: 'done' }]],
  ])('item done: %s', (goal, expected) => {
    const parsed = intents(goal);
    expect(parsed).toHaveLength(expected.length);
    expected.forEach((want, i) => expect(parsed[i]).toMatchObject(want));
  });

  it.each([['complete the purchase'], ['finish my order'], ['complete the checkout in the App Store']])('"%s" is a purchase, not an item: refused', (goal) => {
    expect(refusal(goal)).toContain('purchases');
  });

  it.each<[string, Partial<Intent>[]]>([
    ['in Clock, show me the stopwatch', [{ kind: 'open', app: 'Clock' }, { kind: 'show', target: 'stopwatch' }]],
    ['take me to the timer in Clock', [{ kind: 'show', target: 'timer', app: 'Clock' }]],
    ['bring up the alarms', [{ kind: 'show', target: 'alarms' }]],
    ['show me the serial number', [{ kind: 'show', target: 'serial number' }]],
    ['show me the about phone page', [{ kind: 'show', target: 'about phone', page: true }]],
    ['take me to the display settings', [{ kind: 'show', target: 'display', page: true }]],
    ['go to the about page', [{ kind: 'show', target: 'about', page: true }]],
    // What the device reports about itself stays a question; "show me how many…" too; an address is a visit.
    ['show me the battery level', [{ kind: 'ask', read: 'battery' }]],
    ['show me how many reminders are left', [{ kind: 'ask', read: 'count' }]],
    ['show me apex.example', [{ kind: 'visit', url: 'https://apex.example' }]],
    ['show the Library tab in Music', [{ kind: 'open', app: 'Music' }, { kind: 'tab', tab: 'Library' }]],
  ])('show: %s', (goal, expected) => {
    const parsed = intents(goal);
    expect(parsed).toHaveLength(expected.length);
    expected.forEach((want, i) => expect(parsed[i]).toMatchObject(want));
  });

  it('a switch "in APP" opens the app first', () => {
    expect(intents('show me the serial number')).toEqual([{ kind: 'show', target: 'serial number', app: undefined }]);
    expect(intents('turn on the 9:30 AM alarm in Clock')).toEqual([{ kind: 'open', app: 'Clock' }, { kind: 'toggle', target: '9:30 AM alarm', on: true }]);
    expect(intents('turn Wi-Fi off in Settings')).toEqual([{ kind: 'open', app: 'Settings' }, { kind: 'toggle', target: 'Wi-Fi', on: false }]);
  });
});
