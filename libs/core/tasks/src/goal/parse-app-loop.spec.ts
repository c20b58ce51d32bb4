import type { Intent } from './intents';
import { parseGoal } from './parse-goal';

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

const permission = (app: string, which: string, state: string): Intent => ({ kind: 'app', operation: 'set_permission', app, permission: which as never, state: state as never });
const location = (latitude: number, longitude: number): Partial<Intent> => ({ kind: 'device', operation: 'set_location', arguments: { latitude, longitude } });
const background = (args: Record<string, unknown>): Partial<Intent> => ({ kind: 'device', operation: 'background_app', arguments: args });

describe("parseGoal: the developer's loop in plain words", () => {
  it.each<[string, Partial<Intent>[]]>([
    ['install /work/builds/WhereAmI.app', [{ kind: 'install', path: '/work/builds/WhereAmI.app' }]],
    ['please install ./out/WhereAmI.ipa on the phone', [{ kind: 'install', path: './out/WhereAmI.ipa' }]],
    ['install "/my builds/Where Am I.apk"', [{ kind: 'install', path: '/my builds/Where Am I.apk' }]],
    ['put /tmp/b/WhereAmI.ipa on the phone', [{ kind: 'install', path: '/tmp/b/WhereAmI.ipa' }]],
    ['install /tmp/b/WhereAmI.app, then grant it location access', [{ kind: 'install', path: '/tmp/b/WhereAmI.app' }, permission('it', 'location', 'granted')]],
    ['grant Where Am I location access', [permission('Where Am I', 'location', 'granted')]],
    ['allow Maps to use my location', [permission('Maps', 'location', 'granted')]],
    ['let Where Am I see my location', [permission('Where Am I', 'location', 'granted')]],
    ['deny camera for Where Am I', [permission('Where Am I', 'camera', 'denied')]],
    ['block the camera for Where Am I', [permission('Where Am I', 'camera', 'denied')]],
    ['give Where Am I access to the microphone', [permission('Where Am I', 'microphone', 'granted')]],
    ['revoke photos access from Where Am I', [permission('Where Am I', 'photos', 'denied')]],
    ['reset the location permission for Where Am I', [permission('Where Am I', 'location', 'unset')]],
    ['set the location to 48.8584, 2.2945', [location(48.8584, 2.2945)]],
    ["pretend I'm at 40.7128, -74.0060", [location(40.7128, -74.006)]],
    ['simulate my location at 51.5007, -0.1246', [location(51.5007, -0.1246)]],
    ['open Where Am I, then set the location to 48.8584, 2.2945', [{ kind: 'open', app: 'Where Am I' }, location(48.8584, 2.2945)]],
    ['clear the simulated location', [{ kind: 'device', operation: 'set_location', arguments: { clear: true } }]],
    ['send Where Am I to the background', [{ kind: 'open', app: 'Where Am I' }, background({})]],
    ['background the app for 3 seconds', [background({ seconds: 3 })]],
    ['reset Where Am I', [{ kind: 'app', operation: 'reset_app', app: 'Where Am I' }]],
    ['clear the data of Where Am I', [{ kind: 'app', operation: 'reset_app', app: 'Where Am I' }]],
    ["wipe Where Am I's data", [{ kind: 'app', operation: 'reset_app', app: 'Where Am I' }]],
    ['uninstall Where Am I', [{ kind: 'app', operation: 'uninstall_app', app: 'Where Am I' }]],
    ['delete the Where Am I app', [{ kind: 'app', operation: 'uninstall_app', app: 'Where Am I' }]],
    ['is Where Am I installed?', [{ kind: 'app_state', app: 'Where Am I', asks: 'installed' }]],
    ['is Maps running?', [{ kind: 'app_state', app: 'Maps', asks: 'running' }]],
    ['is Maps in the background?', [{ kind: 'app_state', app: 'Maps', asks: 'background' }]],
    ['check if Where Am I is installed', [{ kind: 'app_state', app: 'Where Am I', asks: 'installed' }]],
  ])('%s', (goal, expected) => {
    expect(intents(goal)).toMatchObject(expected);
  });

  it.each([
    'delete all my photos',
    'erase all content and settings',
    'clear my data',
    'clear all data',
    'reset the phone',
    'reset everything',
    'delete the shopping list note in Notes',
    'uninstall everything',
    'buy Minecraft in the App Store',
    'send 50 dollars to Ada',
  ])('still refuses "%s"', (goal) => {
    expect(refusal(goal)).toMatch(/^Refused|^I cannot/);
  });

  it('leaves the grammar it had alone', () => {
    expect(intents('allow Maps only this time')).toEqual([{ kind: 'open', app: 'Maps' }, { kind: 'answer', words: 'allow only this time' }]);
    expect(intents('enable dark mode')).toMatchObject([{ kind: 'device', operation: 'set_appearance' }]);
    expect(intents('disable blue tooth')).toEqual([{ kind: 'toggle', target: 'blue tooth', on: false }]);
    expect(intents('is Wi-Fi on?')).toMatchObject([{ kind: 'ask', read: 'switch' }]);
  });
});
