/**
 * The offline planner's goal suite on the virtual iPhone, shared by the integration test and the benchmark.
 * Each goal starts on a fresh phone (home screen; Airplane Mode off, Wi-Fi and Bluetooth on) and states the
 * end state the device must really be in, checked on the phone's own accessibility snapshot.
 */
import { PERMISSIONS } from '@apex/port';

/** The part of a phone snapshot element the checks read (structurally the virtual phone's element). */
export interface SnapshotElement {
  type: string;
  identifier?: string;
  label?: string;
  value?: string;
  visible: boolean;
  selected?: boolean;
  rect?: { width: number; height: number };
  children: SnapshotElement[];
}

export interface PhoneEndState {
  /** Foreground app's bundle id. */
  appId: string;
  root: SnapshotElement;
  /** The phone's own posture, where the caller reads it (phoneEndState does). */
  locked?: boolean;
  orientation?: 'portrait' | 'landscape';
  appearance?: 'light' | 'dark';
  clipboard?: string;
  /** Installed apps' states (app id → state), where the caller reads them (phoneEndState does). */
  apps?: Record<string, AppEndState>;
  /** Installed apps' permissions that are set (app id → permission → state). */
  permissions?: Record<string, Record<string, 'granted' | 'denied'>>;
  /** The simulated position, null when none. */
  location?: { latitude: number; longitude: number } | null;
}

export type AppEndState = 'notInstalled' | 'notRunning' | 'background' | 'foreground';
/** The phone's run states (XCUIApplicationState numbers) in words. */
const RUN_STATES: Record<number, AppEndState> = { 0: 'notInstalled', 1: 'notRunning', 2: 'background', 3: 'background', 4: 'foreground' };

/** What phoneEndState reads (structurally the virtual iPhone). */
export interface EndStatePhone {
  activeApp(): { bundleId: string };
  snapshot(): SnapshotElement;
  isLocked(): boolean;
  orientation(): 'PORTRAIT' | 'LANDSCAPE';
  appearance(): 'light' | 'dark';
  pasteboard(type: 'plaintext'): Buffer;
  installedApps(): Array<{ bundleId: string }>;
  appState(bundleId: string): number;
  permission(bundleId: string, permission: (typeof PERMISSIONS)[number]): 'granted' | 'denied' | 'unset';
  location(): { latitude: number; longitude: number } | null;
}

/** The phone's end state as the phone itself knows it (not through any driver). */
export function phoneEndState(phone: EndStatePhone): PhoneEndState {
  let clipboard: string | undefined;
  try {
    clipboard = phone.pasteboard('plaintext').toString('utf8');
  } catch {
    clipboard = undefined;
  }
  const apps: Record<string, AppEndState> = {};
  const permissions: Record<string, Record<string, 'granted' | 'denied'>> = {};
  for (const { bundleId } of phone.installedApps()) {
    apps[bundleId] = RUN_STATES[phone.appState(bundleId)] ?? 'notRunning';
    for (const permission of PERMISSIONS) {
      const state = phone.permission(bundleId, permission);
      if (state !== 'unset') (permissions[bundleId] ??= {})[permission] = state;
    }
  }
  const location = phone.location();
  return {
    appId: phone.activeApp().bundleId,
    root: phone.snapshot(),
    locked: phone.isLocked(),
    orientation: phone.orientation() === 'LANDSCAPE' ? 'landscape' : 'portrait',
    appearance: phone.appearance(),
    clipboard,
    apps,
    permissions,
    location: location ? { latitude: location.latitude, longitude: location.longitude } : null,
  };
}

export interface GoalExpectation {
  status: 'succeeded' | 'failed';
  /** For failures. */
  reason?: string;
  appId?: string;
  /** Switch label → on. */
  switches?: Record<string, boolean>;
  /** Visible texts (static text or labels) that must be on screen, e.g. a page title. */
  visibleText?: string[];
  /** Texts that must not be visible. */
  hiddenText?: string[];
  /** A text input's value must contain this. */
  typed?: string;
  /** No alert may be up. */
  noAlert?: boolean;
  /** No keyboard may be up. */
  noKeyboard?: boolean;
  locked?: boolean;
  orientation?: 'portrait' | 'landscape';
  appearance?: 'light' | 'dark';
  clipboard?: string;
  /** Elements (tabs, checklist rows) with these labels must carry the selected trait… */
  selected?: string[];
  /** …and these must not. */
  notSelected?: string[];
  /** An outgoing message bubble with this text must be on screen (and the message field empty). */
  sent?: string;
  /** Elements with these labels must be wider than this (points): zoomed in. */
  widerThan?: Record<string, number>;
  /** The task's structured answer must match. */
  answer?: RegExp;
  /** A refusal that touched nothing: no step taken, the phone still on its home screen. */
  untouched?: boolean;
  /** Apps' states on the phone (app id → state; 'notInstalled' when the phone does not list it). */
  apps?: Record<string, AppEndState>;
  /** Apps' permissions on the phone (app id → permission → state; 'unset' when none is set). */
  permissions?: Record<string, Record<string, 'granted' | 'denied' | 'unset'>>;
  /** The simulated position (to 4 decimals), or null: none. */
  location?: { latitude: number; longitude: number } | null;
}

/** The part of a task the expectations read beyond the phone: status, reason, answer, steps. */
export interface SettledTask {
  status: string;
  error?: { reason?: string };
  answer?: { value: string | number | boolean };
  steps: readonly unknown[];
}

/** What is wrong with the task's own outcome (status, reason, answer, steps), or [] when it is as expected. */
export function taskProblems(task: SettledTask, expect: GoalExpectation): string[] {
  const problems: string[] = [];
  if (task.status !== expect.status) problems.push(`status ${task.status}, expected ${expect.status}`);
  if (expect.reason && task.error?.reason !== expect.reason) problems.push(`reason ${task.error?.reason}, expected ${expect.reason}`);
  if (expect.answer && !(task.answer && expect.answer.test(String(task.answer.value)))) {
    problems.push(`answer ${JSON.stringify(task.answer?.value)} does not match ${expect.answer}`);
  }
  if (expect.untouched && task.steps.length > 0) problems.push(`${task.steps.length} step(s) taken, expected none`);
  return problems;
}

/**
 * What a goal needs before it starts: the sample app's builds (examples/apps/WhereAmI.app, and an .ipa of it)
 * copied into a folder inside the allowed roots, whose path replaces BUILDS_DIR in the goal's text; or also
 * installed; or also running in front. The runner prepares it (tests/integration/src/tasks/support.ts).
 */
export type GoalGiven = 'sample-copied' | 'sample-installed' | 'sample-running';
export const BUILDS_DIR = '{builds}';

export interface SuiteGoal {
  goal: string;
  expect: GoalExpectation;
  given?: GoalGiven;
}

const SETTINGS = 'com.apple.Preferences';
const NOTES = 'com.apple.mobilenotes';
const PHOTOS = 'com.apple.mobileslideshow';
const MAPS = 'com.apple.Maps';
const HOME = 'com.apple.springboard';

const ABOUT: GoalExpectation = { status: 'succeeded', appId: SETTINGS, visibleText: ['About', 'Model Name', 'Serial Number'] };
const GENERAL: GoalExpectation = { status: 'succeeded', appId: SETTINGS, visibleText: ['Software Update'], hiddenText: ['Serial Number'] };
const SETTINGS_ROOT: GoalExpectation = { status: 'succeeded', appId: SETTINGS, visibleText: ['Airplane Mode'] };
/** A Settings page with nothing on it but its placeholder row. */
const page = (title: string): GoalExpectation => ({ status: 'succeeded', appId: SETTINGS, visibleText: [`No ${title} settings`] });
const wifi = (on: boolean): GoalExpectation => ({ status: 'succeeded', appId: SETTINGS, switches: { 'Wi-Fi': on, Bluetooth: true, 'Airplane Mode': false } });
const bluetooth = (on: boolean): GoalExpectation => ({ status: 'succeeded', appId: SETTINGS, switches: { Bluetooth: on, 'Wi-Fi': true, 'Airplane Mode': false } });
const airplane: GoalExpectation = { status: 'succeeded', appId: SETTINGS, switches: { 'Airplane Mode': true, 'Wi-Fi': true, Bluetooth: true } };
const photos = (count: number): GoalExpectation => ({ status: 'succeeded', appId: PHOTOS, visibleText: [`${count} Photos`] });
const app = (appId: string): GoalExpectation => ({ status: 'succeeded', appId, noAlert: true });
const refused: GoalExpectation = { status: 'failed', reason: 'infeasible' };
const notFound: GoalExpectation = { status: 'failed', reason: 'target_not_found' };

/** The goals the planner has always had (kept as they were: the fault tests look one up by its text). */
const CORE_GOALS: SuiteGoal[] = [
  { goal: 'open Settings', expect: SETTINGS_ROOT },
  { goal: 'turn on Airplane Mode', expect: airplane },
  { goal: 'Open Settings and turn off Wi-Fi', expect: { status: 'succeeded', switches: { 'Wi-Fi': false, Bluetooth: true } } },
  {
    goal: 'turn off Bluetooth, then turn on Airplane Mode',
    expect: { status: 'succeeded', switches: { Bluetooth: false, 'Airplane Mode': true, 'Wi-Fi': true } },
  },
  { goal: 'turn on Wi-Fi and Bluetooth', expect: { status: 'succeeded', switches: { 'Wi-Fi': true, Bluetooth: true, 'Airplane Mode': false } } },
  { goal: 'open Settings, tap General then tap About', expect: ABOUT },
  { goal: 'open Settings, tap General, tap About, then go back', expect: GENERAL },
  { goal: 'open Settings then tap Privacy & Security', expect: page('Privacy & Security') },
  { goal: 'open Settings then scroll down', expect: { status: 'succeeded', appId: SETTINGS, hiddenText: ['Airplane Mode'] } },
  { goal: 'type hello in Notes', expect: { status: 'succeeded', appId: NOTES, typed: 'hello' } },
  { goal: 'open Notes then type "Buy milk, eggs" then tap Done', expect: { status: 'succeeded', appId: NOTES, typed: 'Buy milk, eggs', noKeyboard: true } },
  { goal: 'open Maps then tap Allow While Using App', expect: app(MAPS) },
  { goal: 'open Photos', expect: { status: 'succeeded', appId: PHOTOS } },
  { goal: 'open Safari then go home', expect: { status: 'succeeded', appId: HOME } },
  { goal: 'open the Clock app', expect: { status: 'succeeded', appId: 'com.apple.mobiletimer' } },
  { goal: 'open Fortnite', expect: refused },
  { goal: 'book a table for two at an Italian restaurant', expect: refused },
];

/** The goals of issue 21, as a new user typed them. */
export const ISSUE_21_GOALS: SuiteGoal[] = [
  { goal: 'turn on wifi', expect: wifi(true) },
  { goal: 'open settings, then general, then about', expect: ABOUT },
  { goal: 'go to Settings > General > About', expect: ABOUT },
  { goal: 'In Settings, open Privacy & Security', expect: page('Privacy & Security') },
  { goal: 'Please open Maps', expect: app(MAPS) },
  { goal: 'open Photos and tap the trash icon', expect: photos(11) },
  { goal: 'scroll down in Settings until you see Wallpaper, then open it', expect: page('Wallpaper') },
];

/** Goals written the way people phrase them: verbs, case, punctuation, order, paths, politeness, typos. */
const PHRASED_GOALS: SuiteGoal[] = [
  // Names as people write them.
  { goal: 'turn off wifi', expect: wifi(false) },
  { goal: 'Turn OFF WIFI!', expect: wifi(false) },
  { goal: 'switch bluetooth off', expect: bluetooth(false) },
  { goal: 'disable blue tooth', expect: bluetooth(false) },
  { goal: 'enable flight mode', expect: airplane },
  { goal: 'please turn on airplane mode, thanks', expect: airplane },
  { goal: 'Could you turn off Wi-Fi for me?', expect: wifi(false) },
  { goal: 'trun off bluetooth', expect: bluetooth(false) },
  { goal: 'turn off Bluetoth', expect: bluetooth(false) },
  { goal: 'turn on airplane-mode', expect: airplane },
  { goal: 'turn off the WLAN', expect: wifi(false) },
  { goal: 'turn off wi-fi and bluetooth', expect: { status: 'succeeded', switches: { 'Wi-Fi': false, Bluetooth: false, 'Airplane Mode': false } } },
  { goal: 'In Settings, turn off Wi-Fi', expect: wifi(false) },
  { goal: 'open settings and disable wifi', expect: wifi(false) },
  { goal: 'open setings', expect: SETTINGS_ROOT },
  { goal: 'open preferences', expect: SETTINGS_ROOT },
  { goal: 'Open Mesages', expect: app('com.apple.MobileSMS') },
  { goal: 'launch the photo gallery', expect: { status: 'succeeded', appId: PHOTOS } },
  { goal: 'open the browser', expect: app('com.apple.mobilesafari') },
  { goal: 'start the clock', expect: app('com.apple.mobiletimer') },
  { goal: 'open settings then tap display', expect: page('Display & Brightness') },
  { goal: 'open Settings and open privacy', expect: page('Privacy & Security') },
  { goal: 'open Settings, then tap Genral', expect: GENERAL },
  { goal: 'open Settings and tap sounds', expect: page('Sounds & Haptics') },
  // Paths and context.
  { goal: 'open Settings > General', expect: GENERAL },
  { goal: 'Settings > General > About', expect: ABOUT },
  { goal: 'open settings → general → about', expect: ABOUT },
  { goal: 'open settings, general, about', expect: ABOUT },
  { goal: 'Open Settings. Tap General. Tap About.', expect: ABOUT },
  { goal: 'go to settings, then general, then software update', expect: page('Software Update') },
  { goal: 'go to settings > general > keyboard', expect: page('Keyboard') },
  { goal: 'open Settings > General > Date & Time', expect: page('Date & Time') },
  { goal: 'open Settings, tap general, then tap about, then go back to General', expect: GENERAL },
  { goal: 'open Settings > General > About, then go back to Settings', expect: SETTINGS_ROOT },
  { goal: 'in settings open battery', expect: page('Battery') },
  { goal: 'open Settings then tap Passwords', expect: page('Passwords') },
  { goal: 'open settings and tap safari', expect: page('Safari') },
  { goal: 'open Notes, then go home', expect: { status: 'succeeded', appId: HOME } },
  { goal: 'open Safari and go back to the home screen', expect: { status: 'succeeded', appId: HOME } },
  // Off screen.
  { goal: 'scroll down in settings until you see Battery', expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['Battery'] } },
  { goal: 'in Settings, scroll to Wallet', expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['Wallet'] } },
  { goal: 'open Settings, scroll down until you see Safari, then tap it', expect: page('Safari') },
  { goal: 'open Settings, scroll down, then scroll up until you see Airplane Mode', expect: SETTINGS_ROOT },
  // Alerts in the way.
  { goal: 'open maps and allow once', expect: app(MAPS) },
  { goal: "open Maps, then don't allow", expect: app(MAPS) },
  { goal: 'open Maps, then type coffee in the search field', expect: { status: 'succeeded', appId: MAPS, typed: 'coffee', noAlert: true } },
  // Icons by name.
  { goal: 'open photos, then tap the bin', expect: photos(11) },
  { goal: 'open Photos and tap the gear', expect: { status: 'succeeded', appId: PHOTOS, visibleText: ['iCloud Photos'] } },
  { goal: 'open Photos, tap the search button', expect: { status: 'succeeded', appId: PHOTOS, visibleText: ['Search your photos'] } },
  { goal: 'open Photos and tap the plus button', expect: photos(13) },
  { goal: 'open Photos, tap the share icon', expect: { status: 'succeeded', appId: PHOTOS, visibleText: ['Share 12 Photos'] } },
  { goal: 'open Photos, tap the search icon, then type cats', expect: { status: 'succeeded', appId: PHOTOS, typed: 'cats' } },
  { goal: 'open photos > tap the gear > turn off iCloud Photos', expect: { status: 'succeeded', appId: PHOTOS, switches: { 'iCloud Photos': false } } },
  { goal: 'open Photos, tap the gear, then go back', expect: photos(12) },
  // Typing.
  { goal: 'write "call mom" in notes', expect: { status: 'succeeded', appId: NOTES, typed: 'call mom' } },
  { goal: 'Open Notes, type groceries, then tap done', expect: { status: 'succeeded', appId: NOTES, typed: 'groceries', noKeyboard: true } },
];

/** Goals that must fail: nothing refused or impossible may end "done" by guessing. */
const MUST_FAIL_GOALS: SuiteGoal[] = [
  { goal: 'turn on wifi and make coffee', expect: refused },
  { goal: 'open Settings then make it pretty please', expect: refused },
  { goal: 'tap it', expect: refused },
  { goal: 'open Photos and tap Photo', expect: notFound },
  { goal: 'In Settings, open Privacy & Secrets', expect: notFound },
  { goal: 'turn on the flux capacitor', expect: notFound },
  { goal: 'open Photos and tap the heart icon', expect: notFound },
  { goal: 'go back to Wallpaper', expect: notFound },
  { goal: 'open Settings and tap S', expect: notFound },
];

const SAFARI = 'com.apple.mobilesafari';
const CLOCK = 'com.apple.mobiletimer';
const REMINDERS = 'com.apple.reminders';
const MESSAGES = 'com.apple.MobileSMS';
const REMINDER_LIST = ['Buy milk', 'Call the dentist', 'Water the plants', 'Pay the electricity bill', 'Book train tickets'];
/** Reminders with exactly these marked done. */
const done = (...items: string[]): GoalExpectation => ({
  status: 'succeeded',
  appId: REMINDERS,
  selected: items,
  notSelected: REMINDER_LIST.filter((r) => !items.includes(r)),
});
const tabShown = (appId: string, tab: string): GoalExpectation => ({ status: 'succeeded', appId, selected: [tab] });
const sent = (text: string): GoalExpectation => ({ status: 'succeeded', appId: MESSAGES, sent: text });
/** A question answered without changing anything: the switches as a fresh phone has them. */
const answered = (answer: RegExp, extra: Partial<GoalExpectation> = {}): GoalExpectation => ({ status: 'succeeded', answer, ...extra });
const untouched: GoalExpectation = { status: 'failed', reason: 'infeasible', untouched: true, appId: HOME };
const FRESH_SWITCHES = { 'Wi-Fi': true, Bluetooth: true, 'Airplane Mode': false };

/** Issue 38: every catalog operation in plain words, inside apps, constraints, questions, refusals. */
export const ISSUE_38_GOALS: SuiteGoal[] = [
  // Device controls, one catalog operation each.
  { goal: 'lock the phone', expect: { status: 'succeeded', locked: true } },
  { goal: 'please lock the screen', expect: { status: 'succeeded', locked: true } },
  { goal: 'lock the phone, then unlock the phone', expect: { status: 'succeeded', locked: false, appId: HOME } },
  { goal: 'open Safari and rotate to landscape', expect: { status: 'succeeded', appId: SAFARI, orientation: 'landscape' } },
  { goal: 'open Notes, then turn the phone to landscape mode', expect: { status: 'succeeded', appId: NOTES, orientation: 'landscape' } },
  { goal: 'turn on dark mode', expect: { status: 'succeeded', appearance: 'dark' } },
  { goal: 'switch to dark mode', expect: { status: 'succeeded', appearance: 'dark' } },
  { goal: 'enable dark mode, then switch back to light mode', expect: { status: 'succeeded', appearance: 'light' } },
  { goal: 'copy "hello world" to the clipboard', expect: { status: 'succeeded', clipboard: 'hello world' } },
  { goal: 'put "Apex rocks" on the clipboard', expect: { status: 'succeeded', clipboard: 'Apex rocks' } },
  { goal: 'open Notes, type hello, then hide the keyboard', expect: { status: 'succeeded', appId: NOTES, typed: 'hello', noKeyboard: true } },
  { goal: 'open Maps, then quit Maps', expect: { status: 'succeeded', appId: HOME } },
  { goal: 'open Notes and close it', expect: { status: 'succeeded', appId: HOME } },
  // The page's text is pixels only (a web view): its address is what the tree shows.
  { goal: 'in Safari go to apex.example/docs', expect: { status: 'succeeded', appId: SAFARI, typed: 'https://apex.example/docs' } },
  { goal: 'open apex.example/docs', expect: { status: 'succeeded', appId: SAFARI, typed: 'https://apex.example/docs' } },
  { goal: 'long press the Maps icon', expect: { status: 'succeeded', appId: HOME, visibleText: ['Remove App'] } },
  // The photo fills the width (393 points) until a double tap zooms it in.
  { goal: 'open Photos, tap Photo 3, then double tap it', expect: { status: 'succeeded', appId: PHOTOS, widerThan: { 'Photo 3': 393 } } },
  { goal: 'open Settings, then wait until Airplane Mode appears', expect: SETTINGS_ROOT },
  { goal: 'open Settings and scroll to Battery', expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['Battery'] } },
  { goal: 'open Maps and accept the alert', expect: app(MAPS) },
  { goal: 'open Maps, then dismiss the alert', expect: app(MAPS) },
  // Inside an app: tabs, an item's control, messages, search fields.
  { goal: 'open the timer in Clock', expect: tabShown(CLOCK, 'Timers') },
  { goal: 'open the alarms in Clock', expect: tabShown(CLOCK, 'Alarms') },
  // A part of an app as the second clause: its tab selected (it used to open Clock again and say done).
  { goal: 'open Clock and go to the Stopwatch', expect: tabShown(CLOCK, 'Stopwatch') },
  { goal: 'In Clock, open the Stopwatch tab', expect: tabShown(CLOCK, 'Stopwatch') },
  { goal: 'show the Library tab in Music', expect: tabShown('com.apple.Music', 'Library') },
  { goal: 'mark Buy milk as done', expect: done('Buy milk') },
  { goal: 'check off call the dentist', expect: done('Call the dentist') },
  { goal: 'open Reminders and mark Water the plants as done', expect: done('Water the plants') },
  { goal: 'in Reminders, mark "Book train tickets" as done', expect: done('Book train tickets') },
  { goal: 'mark Buy milk as done, then check off Call the dentist', expect: done('Buy milk', 'Call the dentist') },
  { goal: 'send Ada a message saying running late', expect: sent('running late') },
  { goal: "text Ada 'see you at six'", expect: sent('see you at six') },
  { goal: "open Messages and reply 'sounds good'", expect: sent('sounds good') },
  { goal: 'message Ada "on the train"', expect: sent('on the train') },
  { goal: 'send a message to Ada Lovelace saying lunch at noon', expect: sent('lunch at noon') },
  { goal: 'search Maps for coffee', expect: { status: 'succeeded', appId: MAPS, typed: 'coffee' } },
  { goal: 'search for pizza in Maps', expect: { status: 'succeeded', appId: MAPS, typed: 'pizza' } },
  // Constraints: the named thing is left as it is.
  { goal: 'turn Wi-Fi off but leave Bluetooth on', expect: { status: 'succeeded', appId: SETTINGS, switches: { 'Wi-Fi': false, Bluetooth: true, 'Airplane Mode': false } } },
  { goal: 'turn off bluetooth without changing anything else', expect: bluetooth(false) },
  { goal: 'turn on airplane mode but keep Wi-Fi on', expect: airplane },
  { goal: "disable Wi-Fi, and don't touch Bluetooth", expect: wifi(false) },
  // Questions: the answer in the result, nothing changed.
  { goal: 'what iOS version is this?', expect: answered(/^17\.5$/, { appId: HOME }) },
  { goal: 'what is the model name?', expect: answered(/^iPhone 15$/, { appId: SETTINGS, visibleText: ['Model Name'] }) },
  { goal: 'how many reminders are left?', expect: answered(/^5$/, { appId: REMINDERS, notSelected: REMINDER_LIST }) },
  { goal: 'mark Buy milk as done, then tell me how many reminders are left', expect: { ...done('Buy milk'), answer: /^4$/ } },
  { goal: 'is Wi-Fi on?', expect: answered(/^true$/, { appId: SETTINGS, switches: FRESH_SWITCHES }) },
  { goal: 'is airplane mode enabled?', expect: answered(/^false$/, { appId: SETTINGS, switches: FRESH_SWITCHES }) },
  { goal: 'what is the serial number?', expect: answered(/^APEX0VIRTUAL$/, { appId: SETTINGS, visibleText: ['Serial Number'] }) },
  { goal: 'how many photos are there?', expect: answered(/^12$/, { appId: PHOTOS }) },
  { goal: "what's the battery level?", expect: answered(/^85$/, { appId: HOME }) },
  // Refusals: real-world consequences, nothing touched.
  { goal: 'dial 112', expect: untouched },
  { goal: 'text the police that there is a fire', expect: untouched },
  { goal: 'buy Minecraft in the App Store', expect: untouched },
  { goal: 'open the App Store and purchase the Pro plan', expect: untouched },
  { goal: 'delete the shopping list note in Notes', expect: untouched },
  { goal: 'erase all content and settings', expect: untouched },
  { goal: 'send 50 dollars to Ada', expect: untouched },
  { goal: 'transfer money to Ada', expect: untouched },
  { goal: 'make me a sandwich', expect: untouched },
  // Named things that are not there.
  { goal: 'mark the flux capacitor as done', expect: notFound },
  { goal: "text Bob 'hi'", expect: notFound },
  { goal: 'open the Chess tab in Clock', expect: notFound },
];

/**
 * Families of phrasing rather than sentences (issue 38, the held-out failures): orientation as verb + object +
 * state, an item set done by any of its verbs, and "show me X" decided by what X is on the phone (a tab, an app, a
 * row, or a value to read).
 */
export const FAMILY_GOALS: SuiteGoal[] = [
  // Orientation.
  { goal: 'open Safari, then turn the phone sideways', expect: { status: 'succeeded', appId: SAFARI, orientation: 'landscape' } },
  { goal: 'open Maps and hold the phone horizontally', expect: { status: 'succeeded', appId: MAPS, orientation: 'landscape', noAlert: true } },
  { goal: 'in Notes, set the screen orientation to landscape', expect: { status: 'succeeded', appId: NOTES, orientation: 'landscape' } },
  { goal: 'open Safari, rotate the screen to landscape, then make it portrait again', expect: { status: 'succeeded', appId: SAFARI, orientation: 'portrait' } },
  // An iPhone 15's home screen stays upright (as a real one does): the device refuses, the result says why.
  { goal: 'turn the phone sideways', expect: { status: 'failed', reason: 'infeasible', appId: HOME, orientation: 'portrait' } },
  { goal: 'turn off the screen', expect: { status: 'succeeded', locked: true } },
  // An item set done.
  { goal: 'in Reminders, complete Call the dentist', expect: done('Call the dentist') },
  { goal: 'finish Water the plants', expect: done('Water the plants') },
  { goal: 'Buy milk is done', expect: done('Buy milk') },
  { goal: "I've finished Pay the electricity bill", expect: done('Pay the electricity bill') },
  { goal: 'cross Book train tickets off in Reminders', expect: done('Book train tickets') },
  { goal: 'complete the purchase in the App Store', expect: untouched },
  // "show me X": a tab, an app, a row, a value.
  { goal: 'show me the stopwatch', expect: tabShown(CLOCK, 'Stopwatch') },
  { goal: 'take me to the timer in Clock', expect: tabShown(CLOCK, 'Timers') },
  { goal: 'bring up the alarms in Clock', expect: tabShown(CLOCK, 'Alarms') },
  { goal: 'show me Notes', expect: { status: 'succeeded', appId: NOTES } },
  { goal: 'open Settings, then show me General', expect: GENERAL },
  { goal: 'take me to the general settings', expect: GENERAL },
  { goal: 'go to the about page', expect: ABOUT },
  { goal: 'open the Wallpaper page', expect: page('Wallpaper') },
  { goal: 'show me the serial number', expect: answered(/^APEX0VIRTUAL$/, { appId: SETTINGS, visibleText: ['Serial Number'] }) },
  { goal: 'show me the flux capacitor', expect: notFound },
];

/** The sample app of the developer's loop (examples/apps/WhereAmI.app). */
export const SAMPLE_APP_ID = 'dev.apex.WhereAmI';
const WHERE_AM_I = SAMPLE_APP_ID;
const sample = (state: AppEndState, extra: Partial<GoalExpectation> = {}): GoalExpectation => ({ status: 'succeeded', apps: { [WHERE_AM_I]: state }, ...extra });

/**
 * Issue 38 × issue 33: the developer's loop in plain words. Each starts from what `given` says (the sample's
 * builds copied inside the allowed roots, installed, or running with its location granted); the end state is
 * read from the phone (its apps' states, permissions, simulated location, screen), not the planner's report.
 */
export const APP_LOOP_GOALS: SuiteGoal[] = [
  { goal: `install ${BUILDS_DIR}/WhereAmI.app`, given: 'sample-copied', expect: sample('notRunning', { appId: HOME }) },
  { goal: `install the build at ${BUILDS_DIR}/WhereAmI.ipa`, given: 'sample-copied', expect: sample('notRunning') },
  // Outside the allowed roots: the operation refuses the path, nothing is installed.
  { goal: 'install /etc/WhereAmI.app', given: 'sample-copied', expect: { status: 'failed', reason: 'infeasible', apps: { [WHERE_AM_I]: 'notInstalled' } } },
  {
    goal: `install ${BUILDS_DIR}/WhereAmI.app, then grant it location access`,
    given: 'sample-copied',
    expect: sample('notRunning', { permissions: { [WHERE_AM_I]: { location: 'granted' } } }),
  },
  { goal: 'grant Where Am I location access', given: 'sample-installed', expect: sample('notRunning', { permissions: { [WHERE_AM_I]: { location: 'granted', camera: 'unset' } } }) },
  // Granted before it opens: the app shows no prompt, and says it has no position yet.
  {
    goal: 'allow Where Am I to use my location, then open it',
    given: 'sample-installed',
    expect: sample('foreground', { appId: WHERE_AM_I, noAlert: true, visibleText: ['Location unavailable'], permissions: { [WHERE_AM_I]: { location: 'granted' } } }),
  },
  { goal: 'deny camera for Where Am I', given: 'sample-installed', expect: sample('notRunning', { permissions: { [WHERE_AM_I]: { camera: 'denied', location: 'unset' } } }) },
  { goal: 'set the location to 48.8584, 2.2945', expect: { status: 'succeeded', location: { latitude: 48.8584, longitude: 2.2945 }, appId: HOME } },
  // The app on screen shows the position it is given.
  {
    goal: "open Where Am I, then pretend I'm at 40.7128, -74.0060",
    given: 'sample-running',
    expect: sample('foreground', { appId: WHERE_AM_I, location: { latitude: 40.7128, longitude: -74.006 }, visibleText: ['40.71280, -74.00600'] }),
  },
  { goal: 'set the location to 48.8584, 2.2945, then clear the simulated location', expect: { status: 'succeeded', location: null } },
  { goal: 'send Where Am I to the background', given: 'sample-running', expect: sample('background', { appId: HOME }) },
  { goal: 'background the app for 1 second', given: 'sample-running', expect: sample('foreground', { appId: WHERE_AM_I }) },
  // Resetting the app under test: its data and permissions cleared, still installed (see parse-app-loop.ts).
  { goal: 'reset Where Am I', given: 'sample-running', expect: sample('notRunning', { permissions: { [WHERE_AM_I]: { location: 'unset' } } }) },
  { goal: 'clear the data of Where Am I', given: 'sample-running', expect: sample('notRunning', { permissions: { [WHERE_AM_I]: { location: 'unset' } } }) },
  { goal: 'is Where Am I installed?', given: 'sample-installed', expect: sample('notRunning', { answer: /^true$/, appId: HOME }) },
  { goal: 'uninstall Where Am I, then check whether it is installed', given: 'sample-installed', expect: sample('notInstalled', { answer: /^false$/, appId: HOME }) },
  // This iPhone connection names only running apps, the phone's own and those Apex installed: "no" would be a guess.
  { goal: 'do I have Where Am I installed?', expect: { status: 'failed', reason: 'target_not_found', apps: { [WHERE_AM_I]: 'notInstalled' } } },
  { goal: 'is Where Am I running?', given: 'sample-running', expect: sample('foreground', { answer: /^true$/, appId: WHERE_AM_I }) },
  { goal: 'uninstall Where Am I', given: 'sample-installed', expect: sample('notInstalled', { appId: HOME }) },
  // The phone's own apps hold the user's data: not reset, not removed; nothing touched.
  { goal: 'uninstall Settings', expect: { ...untouched, apps: { 'com.apple.Preferences': 'notRunning' } } },
  { goal: 'reset Photos', expect: untouched },
  // Named by the device (running): refused as the phone's own app after opening it, its photos all there.
  { goal: 'open Photos, then clear the data of Photos', expect: { status: 'failed', reason: 'infeasible', appId: PHOTOS, visibleText: ['12 Photos'] } },
  { goal: 'clear all my data', expect: untouched },
];

export const OFFLINE_GOAL_SUITE: SuiteGoal[] = [...CORE_GOALS, ...ISSUE_21_GOALS, ...PHRASED_GOALS, ...MUST_FAIL_GOALS, ...ISSUE_38_GOALS, ...APP_LOOP_GOALS, ...FAMILY_GOALS];

function* walk(element: SnapshotElement): Generator<SnapshotElement> {
  yield element;
  for (const child of element.children) yield* walk(child);
}

/** What is wrong with the phone's end state, or [] when it is as expected. */
export function endStateProblems(state: PhoneEndState, expect: GoalExpectation): string[] {
  const problems: string[] = [];
  const all = [...walk(state.root)];
  const visible = all.filter((e) => e.visible);
  const texts = (e: SnapshotElement) => [e.label, e.value].filter((t): t is string => Boolean(t));
  if (expect.appId && state.appId !== expect.appId) problems.push(`foreground app is ${state.appId}, expected ${expect.appId}`);
  for (const [label, on] of Object.entries(expect.switches ?? {})) {
    const sw = all.find((e) => e.type === 'Switch' && e.label === label);
    if (!sw) problems.push(`no "${label}" switch on the end screen`);
    else if ((sw.value === '1') !== on) problems.push(`"${label}" is ${sw.value === '1' ? 'on' : 'off'}, expected ${on ? 'on' : 'off'}`);
  }
  for (const text of expect.visibleText ?? []) {
    if (!visible.some((e) => texts(e).includes(text))) problems.push(`"${text}" is not visible`);
  }
  for (const text of expect.hiddenText ?? []) {
    if (visible.some((e) => texts(e).includes(text))) problems.push(`"${text}" is still visible`);
  }
  if (expect.typed !== undefined) {
    const inputs = all.filter((e) => ['TextView', 'TextField', 'SearchField'].includes(e.type));
    if (!inputs.some((e) => (e.value ?? '').includes(expect.typed as string))) problems.push(`no text input holds "${expect.typed}"`);
  }
  if (expect.noAlert && all.some((e) => e.type === 'Alert')) problems.push('an alert is still up');
  if (expect.noKeyboard && all.some((e) => e.type === 'Keyboard')) problems.push('the keyboard is still up');
  const posture = { locked: state.locked, orientation: state.orientation, appearance: state.appearance, clipboard: state.clipboard };
  for (const key of ['locked', 'orientation', 'appearance', 'clipboard'] as const) {
    if (expect[key] !== undefined && posture[key] !== expect[key]) problems.push(`${key} is ${JSON.stringify(posture[key])}, expected ${JSON.stringify(expect[key])}`);
  }
  const labelled = (label: string) => all.filter((e) => e.label === label && e.type !== 'StaticText');
  for (const label of expect.selected ?? []) {
    if (!labelled(label).some((e) => e.selected)) problems.push(`"${label}" is not selected`);
  }
  for (const label of expect.notSelected ?? []) {
    if (labelled(label).some((e) => e.selected)) problems.push(`"${label}" is selected`);
  }
  if (expect.sent !== undefined) {
    if (!visible.some((e) => e.identifier === 'outgoing' && e.label === expect.sent)) problems.push(`no sent message "${expect.sent}" on screen`);
    if (all.some((e) => e.type === 'TextField' && (e.value ?? '') !== '')) problems.push('the message field still holds text');
  }
  for (const [label, width] of Object.entries(expect.widerThan ?? {})) {
    if (!visible.some((e) => e.label === label && (e.rect?.width ?? 0) > width)) problems.push(`"${label}" is not wider than ${width} points`);
  }
  for (const [appId, wanted] of Object.entries(expect.apps ?? {})) {
    const actual = state.apps?.[appId] ?? 'notInstalled';
    if (actual !== wanted) problems.push(`${appId} is ${actual}, expected ${wanted}`);
  }
  for (const [appId, wanted] of Object.entries(expect.permissions ?? {})) {
    for (const [permission, want] of Object.entries(wanted)) {
      const actual = state.permissions?.[appId]?.[permission] ?? 'unset';
      if (actual !== want) problems.push(`${appId}'s ${permission} permission is ${actual}, expected ${want}`);
    }
  }
  if (expect.location !== undefined) {
    const at = (l: { latitude: number; longitude: number } | null | undefined) => (l ? `${l.latitude.toFixed(4)}, ${l.longitude.toFixed(4)}` : 'none');
    if (at(state.location) !== at(expect.location)) problems.push(`the simulated location is ${at(state.location)}, expected ${at(expect.location)}`);
  }
  if (expect.untouched && state.appId !== HOME) problems.push(`foreground app is ${state.appId}, expected the home screen`);
  return problems;
}
