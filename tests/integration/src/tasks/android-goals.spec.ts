import type { Task } from '@apex/tasks';
import { describeWithRealAdb } from '@apex/virtual-device/testing';
import { BUILDS_DIR } from '@apex/tasks/testing';
import { detail, foreground, LAUNCHER, shownTexts, startAndroidTaskStack, type AndroidTaskStack } from './android-support';
import { startTaskStack } from './support';

const SETTINGS = 'com.android.settings';
const CHROME = 'com.android.chrome';
const MAPS = 'com.google.android.apps.maps';
const WHERE_AM_I = 'dev.apex.whereami';

/** A goal of issue 32 §3 in one of its phrasings, and how the device must look afterwards (asked over adb). */
interface AndroidGoal {
  goal: string;
  check: (stack: AndroidTaskStack, task: Task) => Promise<void>;
  /** Refusals: the task must fail with this reason (default: succeed). */
  fails?: string;
}

const wifiOff = async (stack: AndroidTaskStack) => {
  expect((await stack.shell('settings get global wifi_on')).trim()).toBe('0');
  expect(await foreground(stack)).toBe(SETTINGS);
};
const airplaneOn = async (stack: AndroidTaskStack) => {
  expect((await stack.shell('settings get global airplane_mode_on')).trim()).toBe('1');
};
const onDocsPage = async (stack: AndroidTaskStack) => {
  expect(await foreground(stack)).toBe(CHROME);
  const texts = await shownTexts(stack);
  expect(texts).toContain('apex.example/docs');
};
const mapsOnce = async (stack: AndroidTaskStack) => {
  expect(await stack.shell(`dumpsys package ${MAPS}`)).toMatch(/ACCESS_FINE_LOCATION: granted=true, flags=\[ USER_SET\|ONE_TIME \]/);
  expect(await foreground(stack)).toBe(MAPS);
};
const mapsWhileUsing = async (stack: AndroidTaskStack) => {
  expect(await stack.shell(`dumpsys package ${MAPS}`)).toMatch(/ACCESS_FINE_LOCATION: granted=true, flags=\[ USER_SET \]/);
};

const CLOCK = 'com.google.android.deskclock';
const MESSAGES = 'com.google.android.apps.messaging';
const CONTACTS = 'com.google.android.contacts';

const setting = async (stack: AndroidTaskStack, table: 'global' | 'secure' | 'system', key: string) => (await stack.shell(`settings get ${table} ${key}`)).trim();
/** The Clock's alarm switches, in list order, as the dump shows them checked. */
const alarmSwitches = async (stack: AndroidTaskStack) =>
  [...(await stack.shell('uiautomator dump /dev/tty')).matchAll(/<node [^>]*resource-id="com\.google\.android\.deskclock:id\/onoff"[^>]*>/g)].map((m) => /checked="(\w+)"/.exec(m[0])?.[1]);
const clockTab = (tab: string) => async (stack: AndroidTaskStack) => {
  expect(await foreground(stack)).toBe(CLOCK);
  expect(await stack.shell('uiautomator dump /dev/tty')).toMatch(new RegExp(`content-desc="${tab}"[^>]*selected="true"`));
};
/** A refusal: failed before any step, the phone still on its home screen. */
const untouched = async (stack: AndroidTaskStack, task: Task) => {
  expect(task.steps).toEqual([]);
  expect(task.error?.message).toMatch(/Refused: .*Nothing was touched/);
  expect(await foreground(stack)).toBe(LAUNCHER);
};
const answers = (value: (stack: AndroidTaskStack) => Promise<string | boolean>) => async (stack: AndroidTaskStack, task: Task) => {
  expect(task.answer?.value).toEqual(await value(stack));
};

/**
 * Issue 38's families in Android phrasings, each family as several phrasings, end states read over adb. What the
 * virtual Android has no app for (a checklist: no Reminders, no Notes) fails with the reason, as do abilities
 * Android refuses the debugging shell (writing the clipboard).
 */
const ANDROID_FAMILY_GOALS: AndroidGoal[] = [
  // Device controls.
  { goal: 'lock the phone', check: async (stack) => expect(await stack.shell('dumpsys power')).toMatch(/mWakefulness=Asleep/) },
  {
    goal: 'lock the phone, then unlock it',
    check: async (stack, task) => {
      expect(task.steps.map((s) => s.action.arguments['locked'])).toEqual([true, false]);
      expect(await stack.shell('dumpsys power')).toMatch(/mWakefulness=Awake/);
      expect(await stack.shell('dumpsys window')).toMatch(/mKeyguardShowing=false/);
    },
  },
  {
    goal: 'open Chrome and rotate the screen to landscape',
    check: async (stack) => {
      expect(await setting(stack, 'system', 'user_rotation')).toBe('1');
      expect(await foreground(stack)).toBe(CHROME);
    },
  },
  {
    goal: 'open Chrome, turn it sideways, then make it portrait again',
    check: async (stack, task) => {
      expect(task.steps.filter((s) => s.action.operation === 'set_orientation').map((s) => s.action.arguments['orientation'])).toEqual(['landscape', 'portrait']);
      expect(await setting(stack, 'system', 'user_rotation')).toBe('0');
    },
  },
  { goal: 'switch the phone to dark mode', check: async (stack) => expect(await setting(stack, 'secure', 'ui_night_mode')).toBe('2') },
  {
    goal: 'turn on dark mode, then switch back to light mode',
    check: async (stack, task) => {
      expect(task.steps).toHaveLength(2);
      expect(await setting(stack, 'secure', 'ui_night_mode')).toBe('1');
    },
  },
  {
    goal: 'copy "hi" to the clipboard',
    fails: 'infeasible',
    check: async (stack, task) => {
      expect(task.error?.message).toMatch(/cannot set the clipboard/);
      expect(await foreground(stack)).toBe(LAUNCHER);
    },
  },
  {
    goal: 'open Messages, tap Ada Lovelace, type hello, then hide the keyboard',
    check: async (stack) => {
      expect(await stack.shell('dumpsys input_method')).toMatch(/mInputShown=false/);
      expect(await stack.shell('uiautomator dump /dev/tty')).toMatch(/text="hello" resource-id="com\.google\.android\.apps\.messaging:id\/compose_message_text"/);
    },
  },
  {
    goal: 'open Contacts, tap Grace Hopper, then go back',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(CONTACTS);
      expect(await shownTexts(stack)).toEqual(expect.arrayContaining(['Alan Turing', 'Grace Hopper']));
    },
  },
  { goal: 'open Maps, then go home', check: async (stack) => expect(await foreground(stack)).toBe(LAUNCHER) },
  {
    goal: 'open Maps, then close Maps',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(LAUNCHER);
      expect(await stack.shell('ps -A')).not.toContain(MAPS);
    },
  },
  { goal: 'visit apex.example/docs in Chrome', check: onDocsPage },
  {
    goal: 'open Settings, then wait until Network & internet appears',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(SETTINGS);
      expect(await shownTexts(stack)).toContain('Network & internet');
    },
  },
  { goal: 'in Settings, scroll to About phone', check: async (stack) => expect(await shownTexts(stack)).toContain('About phone') },
  // The permission dialog in the way: "dismiss" is a denial (Android's "Don’t allow"), "accept" the narrowest grant.
  {
    goal: 'open Maps, then dismiss the alert',
    check: async (stack) => {
      expect(await stack.shell(`dumpsys package ${MAPS}`)).toMatch(/ACCESS_FINE_LOCATION: granted=false, flags=\[ USER_SET \]/);
      expect(await foreground(stack)).toBe(MAPS);
    },
  },
  { goal: 'open Maps and accept the alert', check: mapsOnce },
  // Settings: the switch found on the way (Connected devices → Bluetooth; Display), toggled, read back.
  {
    goal: 'turn off Bluetooth',
    check: async (stack) => {
      expect(await setting(stack, 'global', 'bluetooth_on')).toBe('0');
      expect(await foreground(stack)).toBe(SETTINGS);
    },
  },
  {
    goal: 'turn off bluetooth without changing anything else',
    check: async (stack, task) => {
      expect(await setting(stack, 'global', 'bluetooth_on')).toBe('0');
      expect(await setting(stack, 'global', 'wifi_on')).toBe('1');
      expect(await setting(stack, 'global', 'airplane_mode_on')).toBe('0');
      expect(task.result).toMatch(/Changed nothing else/);
    },
  },
  {
    goal: 'disable bluetooth but keep wifi on',
    check: async (stack) => {
      expect(await setting(stack, 'global', 'bluetooth_on')).toBe('0');
      expect(await setting(stack, 'global', 'wifi_on')).toBe('1');
    },
  },
  // A kept switch that another clause changed (Airplane mode turns Wi-Fi off here): the goal fails saying so, never
  // "left untouched" (that was a false success).
  {
    goal: 'turn on airplane mode but keep wi-fi on',
    fails: 'target_not_found',
    check: async (stack, task) => {
      expect(await setting(stack, 'global', 'airplane_mode_on')).toBe('1');
      expect(await setting(stack, 'global', 'wifi_on')).toBe('0');
      expect(task.error?.message).toMatch(/Wi-Fi is off, not on/);
    },
  },
  // A part of an app named as a place to go ("switch to Stopwatch" in Clock): its tab selected, not only the app opened.
  { goal: 'open Clock and go to the Stopwatch', check: clockTab('Stopwatch') },
  { goal: 'turn on auto-rotate', check: async (stack) => expect(await setting(stack, 'system', 'accelerometer_rotation')).toBe('1') },
  // A switch on a page above the one a clause before left (Internet → Network & internet → Settings).
  {
    goal: 'switch wifi off and turn on airplane mode',
    check: async (stack) => {
      expect(await setting(stack, 'global', 'wifi_on')).toBe('0');
      expect(await setting(stack, 'global', 'airplane_mode_on')).toBe('1');
    },
  },
  {
    goal: 'turn off wi-fi and bluetooth',
    check: async (stack) => {
      expect(await setting(stack, 'global', 'wifi_on')).toBe('0');
      expect(await setting(stack, 'global', 'bluetooth_on')).toBe('0');
    },
  },
  // A page, named as one: navigated to (its row tapped), not read as a value.
  {
    goal: 'show me the about phone page',
    check: async (stack, task) => {
      expect(task.answer).toBeUndefined();
      expect(await shownTexts(stack)).toEqual(expect.arrayContaining(['About phone', 'Android version', 'Build number']));
    },
  },
  { goal: 'take me to the internet settings', check: async (stack) => expect(await shownTexts(stack)).toEqual(expect.arrayContaining(['Internet', 'Wi-Fi', 'AndroidWifi'])) },
  { goal: 'take me to the display settings', check: async (stack) => expect(await shownTexts(stack)).toEqual(expect.arrayContaining(['Display', 'Dark theme', 'Auto-rotate screen'])) },
  {
    goal: 'open Settings > Network & internet > Internet',
    check: async (stack) => expect(await shownTexts(stack)).toEqual(expect.arrayContaining(['Internet', 'Wi-Fi', 'AndroidWifi'])),
  },
  // Tabs, an item's switch, messages, search fields.
  { goal: 'in Clock, show me the stopwatch', check: clockTab('Stopwatch') },
  { goal: 'take me to the timer in Clock', check: clockTab('Timer') },
  { goal: 'in Clock, turn on the 9:30 AM alarm', check: async (stack) => expect(await alarmSwitches(stack)).toEqual(['true', 'true']) },
  { goal: 'turn off the alarm at 7:00 AM in Clock', check: async (stack) => expect(await alarmSwitches(stack)).toEqual(['false', 'false']) },
  // No app named: "alarm" is a part of Clock, so the switch is looked for there, not in Settings.
  { goal: 'turn on the alarm at 9:30', check: async (stack) => expect(await alarmSwitches(stack)).toEqual(['true', 'true']) },
  {
    goal: 'send Ada a message saying running late',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(MESSAGES);
      expect(await shownTexts(stack)).toContain('running late');
    },
  },
  { goal: 'open Messages and reply "sounds good"', check: async (stack) => expect(await shownTexts(stack)).toContain('sounds good') },
  {
    goal: 'search Maps for coffee',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(MAPS);
      expect(await stack.shell('uiautomator dump /dev/tty')).toMatch(/text="coffee" resource-id="com\.google\.android\.apps\.maps:id\/search_omnibox_text_box"/);
    },
  },
  // Questions: the answer is the device's own.
  { goal: 'is Bluetooth on?', check: answers(async (stack) => (await setting(stack, 'global', 'bluetooth_on')) === '1') },
  { goal: 'is airplane mode enabled?', check: answers(async (stack) => (await setting(stack, 'global', 'airplane_mode_on')) === '1') },
  { goal: 'is dark theme on?', check: answers(async (stack) => (await setting(stack, 'secure', 'ui_night_mode')) === '2') },
  { goal: 'what is the model?', check: answers(async (stack) => (await stack.shell('getprop ro.product.model')).trim()) },
  { goal: 'what is the build number?', check: answers(async (stack) => (await stack.shell('getprop ro.build.id')).trim()) },
  { goal: 'show me the build number', check: answers(async (stack) => (await stack.shell('getprop ro.build.id')).trim()) },
  // Refusals: nothing touched.
  { goal: 'call 911', fails: 'infeasible', check: untouched },
  { goal: 'buy the Pro plan in the Play Store', fails: 'infeasible', check: untouched },
  { goal: 'send $20 to Ada', fails: 'infeasible', check: untouched },
  { goal: 'delete all my photos', fails: 'infeasible', check: untouched },
  // No checklist app on this phone: the failure says so.
  {
    goal: 'mark Buy milk as done',
    fails: 'infeasible',
    check: async (_stack, task) => expect(task.error?.message).toMatch(/no app named "Reminders"/),
  },
];

const GOALS: AndroidGoal[] = [
  { goal: 'turn off Wi-Fi', check: wifiOff },
  { goal: 'disable wifi', check: wifiOff },
  { goal: 'open Settings and switch Wi-Fi off', check: wifiOff },
  { goal: 'turn on airplane mode', check: airplaneOn },
  { goal: 'open Chrome and go to apex.example/docs', check: onDocsPage },
  { goal: 'launch chrome, then visit https://apex.example/docs', check: onDocsPage },
  { goal: 'allow Maps only this time', check: mapsOnce },
  { goal: 'open Maps and allow once', check: mapsOnce },
  { goal: 'open Maps, then allow while using the app', check: mapsWhileUsing },
  {
    goal: 'open Settings then go back',
    check: async (stack) => expect(await foreground(stack)).toBe(LAUNCHER),
  },
  {
    goal: 'open Settings, tap Network & internet, then go back',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(SETTINGS);
      const texts = await shownTexts(stack);
      expect(texts).toEqual(expect.arrayContaining(['Network & internet', 'Connected devices']));
      expect(texts).not.toContain('Hotspot & tethering');
    },
  },
  // Issue 38's families, in Android phrasings.
  {
    goal: 'turn Wi-Fi off but leave Bluetooth on',
    check: async (stack, task) => {
      await wifiOff(stack);
      expect((await stack.shell('settings get global bluetooth_on')).trim()).toBe('1');
      expect(task.result).toMatch(/Bluetooth/);
    },
  },
  {
    goal: 'is Wi-Fi on?',
    check: async (stack, task) => {
      expect(task.answer).toMatchObject({ value: true });
      expect((await stack.shell('settings get global wifi_on')).trim()).toBe('1');
    },
  },
  {
    goal: 'what Android version is this?',
    check: async (stack, task) => {
      expect(task.answer).toMatchObject({ subject: 'Android version', value: (await stack.shell('getprop ro.build.version.release')).trim() });
    },
  },
  {
    goal: 'open the timer in Clock',
    check: async (stack) => {
      expect(await foreground(stack)).toBe('com.google.android.deskclock');
      expect(await stack.shell('uiautomator dump /dev/tty')).toMatch(/content-desc="Timer"[^>]*selected="true"/);
    },
  },
  {
    goal: "text Ada 'see you at six'",
    check: async (stack) => {
      expect(await shownTexts(stack)).toContain('see you at six');
    },
  },
  {
    goal: 'open Settings, tap Network & internet, then press back',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(SETTINGS);
      expect(await shownTexts(stack)).toContain('Connected devices');
    },
  },
  {
    goal: 'dial 112',
    fails: 'infeasible',
    check: async (stack, task) => {
      expect(task.steps).toEqual([]);
      expect(await foreground(stack)).toBe(LAUNCHER);
    },
  },
  {
    goal: 'open Chrome, go to apex.example/docs, then go back',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(CHROME);
      expect(await shownTexts(stack)).toContain('apex.example');
    },
  },
  ...ANDROID_FAMILY_GOALS,
  // The developer's loop (issue 38 × issue 33), the sample APK copied into the data dir.
  {
    goal: `install ${BUILDS_DIR}/WhereAmI.apk`,
    check: async (stack, task) => {
      expect(await stack.shell('pm list packages')).toContain(`package:${WHERE_AM_I}`);
      expect(task.result).toMatch(/Installed Where Am I/);
    },
  },
  {
    goal: `install ${BUILDS_DIR}/WhereAmI.apk, then grant it location access`,
    check: async (stack) => {
      expect(await stack.shell(`dumpsys package ${WHERE_AM_I}`)).toMatch(/ACCESS_FINE_LOCATION: granted=true/);
    },
  },
  {
    goal: `install ${BUILDS_DIR}/WhereAmI.apk, allow it to use my location, open it, then set the location to 48.8584, 2.2945`,
    check: async (stack) => {
      expect(await foreground(stack)).toBe(WHERE_AM_I);
      expect(await shownTexts(stack)).toContain('Location: 48.85840, 2.29450');
    },
  },
];

/**
 * The offline planner's Android goals (issue 32 §3) as real tasks on the virtual Android phone, through
 * driver-adb and a real adb server; each end state is read back from the device over adb, not from the
 * planner's report. Skipped, with the reason printed, where adb is absent.
 */
describeWithRealAdb('offline planner goals on the virtual Android phone', () => {
  it.each(GOALS.map((g) => [g.goal, g] as const))('%s', async (_goal, { goal, check, fails }) => {
    const stack = await startAndroidTaskStack();
    try {
      const task = await stack.run(goal);
      const wanted = fails ? { status: 'failed', reason: fails } : { status: 'succeeded', reason: undefined };
      expect({ status: task.status, reason: task.error?.reason, detail: detail(task) }).toEqual({ ...wanted, detail: detail(task) });
      await check(stack, task);
    } finally {
      await stack.close();
    }
  }, 120_000);
});

/** iOS has no back button to press: "go back" where the screen shows none fails with the reason, not a fake success. */
describe('"go back" on the virtual iPhone, which has no back button', () => {
  it('fails as infeasible on the home screen, and the phone stays there', async () => {
    const stack = await startTaskStack();
    try {
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal: 'go back' })).id);
      expect({ status: task.status, reason: task.error?.reason }).toEqual({ status: 'failed', reason: 'infeasible' });
      expect(task.error?.message).toMatch(/no back button/);
      expect(task.steps.map((s) => [s.action.operation, s.outcome.status])).toEqual([['press_button', 'error']]);
      expect(stack.endState().appId).toBe('com.apple.springboard');
    } finally {
      await stack.close();
    }
  }, 120_000);
});
