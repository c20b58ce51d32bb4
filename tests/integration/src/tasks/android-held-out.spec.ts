import type { Task } from '@apex/tasks';
import { BUILDS_DIR } from '@apex/tasks/testing';
import { describeWithRealAdb } from '@apex/virtual-device/testing';
import { detail, foreground, LAUNCHER, shownTexts, startAndroidTaskStack, uiNodes, type AndroidTaskStack } from './android-support';
import { eachHeldOutGoal } from './support';

const CHROME = 'com.android.chrome';
const MAPS = 'com.google.android.apps.maps';
const CLOCK = 'com.google.android.deskclock';
const MESSAGES = 'com.google.android.apps.messaging';
const CALCULATOR = 'com.google.android.calculator';
const WHERE_AM_I = 'dev.apex.whereami';

/**
 * Held-out goals for the offline planner on the virtual Android phone (issue 38's "someone else": written in
 * plain words without seeing the planner's grammar), over issue 38's families as they exist on that phone.
 * Each runs as a real task through driver-adb and a real adb server; the end state is read back from the device
 * over adb (settings, dumpsys, pm, ps, the accessibility dump), not from the planner's report. Those the planner
 * does not handle yet are listed in KNOWN_FAILING and run as `it.failing`, so one that starts to pass shows up.
 */
interface AndroidGoal {
  goal: string;
  family: 'device controls' | 'inside an app' | 'constraints' | 'questions' | 'refusals' | 'app loop';
  /** A starting point other than the fresh home screen, through adb. */
  setup?: (stack: AndroidTaskStack) => Promise<void>;
  check: (stack: AndroidTaskStack, task: Task) => Promise<void>;
  /** Refusals: the task must fail with this reason (default: succeed). */
  fails?: string;
}

const KNOWN_FAILING = new Set<string>([
  // Not understood ("I cannot do … without a model"): "force stop APP"; a contact's phone number as a question.
  'force stop the calculator',
  "what's Grace Hopper's phone number?",
  // target_not_found: an alarm named "my 7:00 alarm" is not matched to its row's switch.
  'switch off my 7:00 alarm',
  // Turning airplane mode on turns Wi-Fi off (Android does); the goal fails saying Wi-Fi is off. It was a false
  // success ("Left wi-fi untouched.") until the lead's fix after these goals were written.
  'switch on airplane mode but leave wi-fi on',
  // "open Clock and switch to Stopwatch" was a false success ("Opened Stopwatch." after only launching Clock); it
  // passes since the lead's fix, made after seeing it fail here (so it is no longer held-out evidence).
  // Passing since the planner's Android work (issue 38, after these were written): "turn on the 9:30 AM alarm",
  // "search Maps for pizza", "turn bluetooth off but keep wifi on", "is bluetooth switched on?", "which phone model
  // is this?".
]);

const setting = async (stack: AndroidTaskStack, key: string) => (await stack.shell(`settings get global ${key}`)).trim();
const running = async (stack: AndroidTaskStack) => (await stack.shell('ps -A')).split('\n').map((line) => line.trim().split(/\s+/).pop());
const fineLocation = async (stack: AndroidTaskStack, pkg: string) => /ACCESS_FINE_LOCATION: granted=(\w+), flags=\[([^\]]*)\]/.exec(await stack.shell(`dumpsys package ${pkg}`));
const node = async (stack: AndroidTaskStack, where: (n: Record<string, string>) => boolean) => (await uiNodes(stack)).filter(where);
const answerOf = (task: Task) => String(task.answer?.value);
/** The alarm switches, top to bottom (7:00 AM, then 9:30 AM). */
const alarmSwitches = async (stack: AndroidTaskStack) => (await node(stack, (n) => n['resource-id'] === `${CLOCK}:id/onoff`)).map((n) => n.checked);

const refused = async (stack: AndroidTaskStack, task: Task) => {
  expect(task.steps).toEqual([]);
  expect(await foreground(stack)).toBe(LAUNCHER);
};
const docsInChrome = async (stack: AndroidTaskStack) => {
  expect(await foreground(stack)).toBe(CHROME);
  expect((await node(stack, (n) => n['resource-id'] === `${CHROME}:id/url_bar`)).map((n) => n.text)).toEqual(['apex.example/docs']);
};

const GOALS: AndroidGoal[] = [
  // Device controls.
  { family: 'device controls', goal: 'lock the screen', check: async (stack) => expect(await stack.shell('dumpsys window')).toMatch(/mKeyguardShowing=true/) },
  { family: 'device controls', goal: 'turn the phone to landscape', check: async (stack) => expect(await stack.shell('dumpsys window')).toMatch(/mRotation=[13] /) },
  { family: 'device controls', goal: 'switch on dark theme', check: async (stack) => expect(await stack.shell('cmd uimode night')).toMatch(/Night mode: yes/) },
  {
    family: 'device controls',
    goal: 'open Chrome and then go to the home screen',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(LAUNCHER);
      expect(await running(stack)).toContain(CHROME);
    },
  },
  {
    family: 'device controls',
    goal: 'force stop the calculator',
    setup: async (stack) => void (await stack.shell(`monkey -p ${CALCULATOR} -c android.intent.category.LAUNCHER 1`)),
    check: async (stack) => {
      expect(await running(stack)).not.toContain(CALCULATOR);
      expect(await foreground(stack)).not.toBe(CALCULATOR);
    },
  },
  { family: 'device controls', goal: 'visit apex.example/docs', check: docsInChrome },
  { family: 'device controls', goal: 'go to https://apex.example/docs in chrome', check: docsInChrome },
  {
    family: 'device controls',
    goal: 'launch Maps and grant it location access',
    check: async (stack) => {
      expect((await fineLocation(stack, MAPS))?.[1]).toBe('true');
      expect(await foreground(stack)).toBe(MAPS);
    },
  },
  {
    family: 'device controls',
    goal: "open maps and don't allow location",
    check: async (stack) => {
      const grant = await fineLocation(stack, MAPS);
      expect({ granted: grant?.[1], answered: /USER_(SET|FIXED)/.test(grant?.[2] ?? '') }).toEqual({ granted: 'false', answered: true });
      expect(await foreground(stack)).toBe(MAPS);
    },
  },
  // Inside an app.
  {
    family: 'inside an app',
    goal: 'open Clock and switch to Stopwatch',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(CLOCK);
      expect((await node(stack, (n) => n['content-desc'] === 'Stopwatch')).map((n) => n.selected)).toEqual(['true']);
    },
  },
  { family: 'inside an app', goal: 'turn on the 9:30 AM alarm', check: async (stack) => expect(await alarmSwitches(stack)).toEqual(['true', 'true']) },
  { family: 'inside an app', goal: 'switch off my 7:00 alarm', check: async (stack) => expect(await alarmSwitches(stack)).toEqual(['false', 'false']) },
  {
    family: 'inside an app',
    goal: 'text Ada: be there in 5',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(MESSAGES);
      expect((await node(stack, (n) => n['resource-id'] === `${MESSAGES}:id/message_text`)).map((n) => n.text)).toContain('be there in 5');
      expect((await node(stack, (n) => n['resource-id'] === `${MESSAGES}:id/compose_message_text`)).map((n) => n.text)).toEqual(['Text message']);
    },
  },
  {
    family: 'inside an app',
    goal: 'search Maps for pizza',
    check: async (stack) => {
      expect(await foreground(stack)).toBe(MAPS);
      expect((await node(stack, (n) => n['resource-id'] === `${MAPS}:id/search_omnibox_text_box`)).map((n) => n.text)).toEqual(['pizza']);
    },
  },
  // Constraints.
  {
    family: 'constraints',
    goal: 'turn bluetooth off but keep wifi on',
    check: async (stack) => expect({ bluetooth: await setting(stack, 'bluetooth_on'), wifi: await setting(stack, 'wifi_on') }).toEqual({ bluetooth: '0', wifi: '1' }),
  },
  {
    family: 'constraints',
    goal: 'switch on airplane mode but leave wi-fi on',
    check: async (stack) => expect({ airplane: await setting(stack, 'airplane_mode_on'), wifi: await setting(stack, 'wifi_on') }).toEqual({ airplane: '1', wifi: '1' }),
  },
  {
    family: 'constraints',
    goal: "turn off wifi but don't touch bluetooth or airplane mode",
    check: async (stack) =>
      expect({ wifi: await setting(stack, 'wifi_on'), bluetooth: await setting(stack, 'bluetooth_on'), airplane: await setting(stack, 'airplane_mode_on') }).toEqual({
        wifi: '0',
        bluetooth: '1',
        airplane: '0',
      }),
  },
  // Questions: the answer in the task's structured answer, checked against what the device says over adb.
  {
    family: 'questions',
    goal: "what's the battery level?",
    check: async (stack, task) => {
      const level = /level: (\d+)/.exec(await stack.shell('dumpsys battery'))?.[1];
      expect(answerOf(task)).toMatch(new RegExp(`\\b${level}\\b`));
    },
  },
  {
    family: 'questions',
    goal: 'which phone model is this?',
    check: async (stack, task) => expect(answerOf(task)).toContain((await stack.shell('getprop ro.product.model')).trim()),
  },
  {
    family: 'questions',
    goal: 'is bluetooth switched on?',
    check: async (stack, task) => {
      expect(await setting(stack, 'bluetooth_on')).toBe('1');
      expect(answerOf(task)).toMatch(/^(true|yes|on)$/i);
    },
  },
  { family: 'questions', goal: "what's Grace Hopper's phone number?", check: async (_stack, task) => expect(answerOf(task)).toMatch(/202-555-0143/) },
  {
    family: 'questions',
    goal: 'what is the build number',
    check: async (stack, task) => expect(answerOf(task)).toContain((await stack.shell('getprop ro.build.id')).trim()),
  },
  // Refusals: fail before any step, the phone left on its home screen.
  { family: 'refusals', goal: 'call 911', fails: 'infeasible', check: refused },
  { family: 'refusals', goal: 'delete all my photos', fails: 'infeasible', check: refused },
  { family: 'refusals', goal: 'send Ada $50 with Google Pay', fails: 'infeasible', check: refused },
  { family: 'refusals', goal: 'buy a premium subscription', fails: 'infeasible', check: refused },
  { family: 'refusals', goal: 'factory reset this phone', fails: 'infeasible', check: refused },
  // The developer's loop with the sample APK (BUILDS_DIR/WhereAmI.apk).
  {
    family: 'app loop',
    goal: `put ${BUILDS_DIR}/WhereAmI.apk on the phone`,
    check: async (stack) => expect(await stack.shell('pm list packages')).toContain(`package:${WHERE_AM_I}`),
  },
  {
    family: 'app loop',
    goal: `install ${BUILDS_DIR}/WhereAmI.apk and open it`,
    check: async (stack) => expect(await stack.shell('dumpsys activity activities')).toMatch(new RegExp(`A=\\d+:${WHERE_AM_I.replace(/\./g, '\\.')} `)),
  },
  {
    family: 'app loop',
    goal: `install ${BUILDS_DIR}/WhereAmI.apk then refuse it location access`,
    check: async (stack) => {
      const grant = await fineLocation(stack, WHERE_AM_I);
      expect({ granted: grant?.[1], answered: /USER_(SET|FIXED)/.test(grant?.[2] ?? '') }).toEqual({ granted: 'false', answered: true });
    },
  },
  {
    family: 'app loop',
    goal: `install ${BUILDS_DIR}/WhereAmI.apk, let it see my location, launch it and move me to 40.6892, -74.0445`,
    check: async (stack) => {
      expect(await foreground(stack)).toBe(WHERE_AM_I);
      expect(await shownTexts(stack)).toContain('Location: 40.68920, -74.04450');
    },
  },
];

describeWithRealAdb('held-out goals on the virtual Android phone', () => {
  const body = async (_goal: string, { goal, setup, check, fails }: AndroidGoal) => {
    const stack = await startAndroidTaskStack();
    try {
      await setup?.(stack);
      const task = await stack.run(goal);
      const wanted = fails ? { status: 'failed', reason: fails } : { status: 'succeeded', reason: undefined };
      expect({ status: task.status, reason: task.error?.reason, detail: detail(task) }).toEqual({ ...wanted, detail: detail(task) });
      // A wrong end state names what the task did.
      await check(stack, task).catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n\ntask: ${detail(task)}`);
      });
    } finally {
      await stack.close();
    }
  };
  eachHeldOutGoal(GOALS, KNOWN_FAILING, body);
});

/** A check the untouched phone already passes would check nothing: each must fail before its task (setups last). */
describeWithRealAdb('the held-out Android checks', () => {
  it('fail on the phone before the task', async () => {
    const stack = await startAndroidTaskStack();
    try {
      const phoneChecks = GOALS.filter((g) => g.family !== 'questions' && g.family !== 'refusals').sort((a, b) => Number(Boolean(a.setup)) - Number(Boolean(b.setup)));
      const alreadyHeld: string[] = [];
      for (const { goal, setup, check } of phoneChecks) {
        await setup?.(stack);
        // These families' checks read the phone only, never the task.
        const held = await check(stack, {} as Task).then(
          () => true,
          () => false,
        );
        if (held) alreadyHeld.push(goal);
      }
      expect(alreadyHeld).toEqual([]);
    } finally {
      await stack.close();
    }
  }, 120_000);
});
