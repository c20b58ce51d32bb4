/**
 * A second set of held-out goals for the offline planner on the virtual iPhone (issue 38's "someone else"):
 * written in plain words, as a new user would type them, by a helper who had not seen the planner's grammar,
 * its goal modules, the goal suite's goal lists nor the first held-out set. Only what the virtual iPhone
 * contains (libs/virtual-device) and the suite's expectation types were known. Each goal starts on a fresh
 * phone (home screen, unlocked, portrait, light; Airplane Mode off, Wi-Fi and Bluetooth on), after what `given`
 * prepares; the end state is read from the phone itself. Run by tests/integration/src/tasks/held-out-goals-2.spec.ts.
 *
 * The one correction made after the first run (a fact about the phone, not about the planner): an iPhone 15's
 * home screen does not turn (only Plus/Max models' does), so the goals that rotate start with an app in front
 * (`given: 'sample-running'`) instead of on the home screen, where no planner could succeed.
 */
import { BUILDS_DIR, type AppEndState, type GoalExpectation, type SuiteGoal } from './goal-suite';

const HOME = 'com.apple.springboard';
const SETTINGS = 'com.apple.Preferences';
const NOTES = 'com.apple.mobilenotes';
const SAFARI = 'com.apple.mobilesafari';
const MAPS = 'com.apple.Maps';
const PHOTOS = 'com.apple.mobileslideshow';
const CLOCK = 'com.apple.mobiletimer';
const PHONE = 'com.apple.mobilephone';
const MUSIC = 'com.apple.Music';
const REMINDERS = 'com.apple.reminders';
const MESSAGES = 'com.apple.MobileSMS';
const WHERE_AM_I = 'dev.apex.WhereAmI';

const ok = (expect: Omit<GoalExpectation, 'status'>): GoalExpectation => ({ status: 'succeeded', ...expect });
const switches = (wifi: boolean, bluetooth: boolean, airplane: boolean): GoalExpectation =>
  ok({ appId: SETTINGS, switches: { 'Wi-Fi': wifi, Bluetooth: bluetooth, 'Airplane Mode': airplane } });
const docsPage = ok({ appId: SAFARI, visibleText: ['https://apex.example/docs'] });
const tab = (appId: string, label: string): GoalExpectation => ok({ appId, selected: [label] });
const REMINDER_TITLES = ['Buy milk', 'Call the dentist', 'Water the plants', 'Pay the electricity bill', 'Book train tickets'];
const checkedOff = (...items: string[]): GoalExpectation =>
  ok({ appId: REMINDERS, selected: items, notSelected: REMINDER_TITLES.filter((r) => !items.includes(r)) });
const sentMessage = (text: string): GoalExpectation => ok({ appId: MESSAGES, sent: text });
const searched = (appId: string, text: string): GoalExpectation => ok({ appId, typed: text });
const answer = (pattern: RegExp): GoalExpectation => ok({ answer: pattern });
/** A refusal: failed as infeasible before any step, the phone still on its home screen. */
const refusal: GoalExpectation = { status: 'failed', reason: 'infeasible', untouched: true, appId: HOME };
const sample = (state: AppEndState, extra: Omit<GoalExpectation, 'status'> = {}): GoalExpectation => ok({ apps: { [WHERE_AM_I]: state }, ...extra });

/** Every catalog operation in plain words: lock, rotate, appearance, clipboard, keyboard, alerts, close/quit, home, URLs, scroll. */
const DEVICE_CONTROLS: SuiteGoal[] = [
  { goal: 'lock my phone', expect: ok({ locked: true }) },
  { goal: 'put the iphone to sleep', expect: ok({ locked: true }) },
  { goal: 'turn the phone sideways', given: 'sample-running', expect: ok({ orientation: 'landscape' }) },
  { goal: 'switch the screen to landscape mode', given: 'sample-running', expect: ok({ orientation: 'landscape' }) },
  { goal: 'enable dark mode', expect: ok({ appearance: 'dark' }) },
  { goal: 'dark theme on please', expect: ok({ appearance: 'dark' }) },
  { goal: 'copy "meeting at 3pm" to the clipboard', expect: ok({ clipboard: 'meeting at 3pm' }) },
  { goal: 'put the text apex-1234 on my clipboard', expect: ok({ clipboard: 'apex-1234' }) },
  { goal: "open Notes, write 'grocery list' and hide the keyboard", expect: ok({ appId: NOTES, typed: 'grocery list', noKeyboard: true }) },
  { goal: 'close Where Am I', given: 'sample-running', expect: ok({ appId: HOME }) },
  { goal: 'force quit the Where Am I app', given: 'sample-running', expect: sample('notRunning', { appId: HOME }) },
  { goal: 'press the home button', given: 'sample-running', expect: sample('background', { appId: HOME }) },
  { goal: 'browse to apex.example/docs', expect: docsPage },
  { goal: 'open the page https://apex.example/docs', expect: docsPage },
  { goal: 'open Maps and allow it to use my location', expect: ok({ appId: MAPS, noAlert: true, permissions: { [MAPS]: { location: 'granted' } } }) },
  { goal: "open maps but don't let it access my location", expect: ok({ appId: MAPS, noAlert: true, permissions: { [MAPS]: { location: 'denied' } } }) },
  { goal: 'scroll down to the Safari row in Settings', expect: ok({ appId: SETTINGS, visibleText: ['Safari'] }) },
];

/** Inside an app: tabs, checklist items, messages, search fields. */
const INSIDE_AN_APP: SuiteGoal[] = [
  { goal: 'open Clock and go to Alarms', expect: tab(CLOCK, 'Alarms') },
  { goal: 'switch to the Timers tab in Clock', expect: tab(CLOCK, 'Timers') },
  { goal: 'open the keypad in the Phone app', expect: tab(PHONE, 'Keypad') },
  { goal: 'Music: go to Radio', expect: tab(MUSIC, 'Radio') },
  { goal: 'check off Water the plants', expect: checkedOff('Water the plants') },
  { goal: 'mark pay the electricity bill as complete', expect: checkedOff('Pay the electricity bill') },
  { goal: 'tick off "Book train tickets" in my reminders', expect: checkedOff('Book train tickets') },
  { goal: 'mark both Buy milk and Call the dentist as done', expect: checkedOff('Buy milk', 'Call the dentist') },
  { goal: 'send Ada a text saying on my way', expect: sentMessage('on my way') },
  { goal: 'message Ada "running 10 min late"', expect: sentMessage('running 10 min late') },
  { goal: 'reply to Ada: sounds great, see you', expect: sentMessage('sounds great, see you') },
  { goal: "tell ada i'll bring snacks", expect: sentMessage("i'll bring snacks") },
  { goal: 'look up Apex Park in Maps', expect: searched(MAPS, 'Apex Park') },
  { goal: 'in Maps search for Market Street', expect: searched(MAPS, 'Market Street') },
  { goal: 'search my photos for beach', expect: searched(PHOTOS, 'beach') },
];

/** Constraints: the named thing is left as it is. */
const CONSTRAINTS: SuiteGoal[] = [
  { goal: 'switch off Bluetooth but keep Wi-Fi on', expect: switches(true, false, false) },
  { goal: 'disable wifi without touching bluetooth', expect: switches(false, true, false) },
  { goal: 'turn on airplane mode and leave wifi and bluetooth as they are', expect: switches(true, true, true) },
  { goal: 'turn off both wifi and bluetooth, but do not enable airplane mode', expect: switches(false, false, false) },
  { goal: 'go to dark mode but keep the screen unlocked', expect: ok({ appearance: 'dark', locked: false }) },
  { goal: 'rotate to landscape without changing the appearance', given: 'sample-running', expect: ok({ orientation: 'landscape', appearance: 'light' }) },
];

/** Questions, answered in the task's structured answer (device_status or the screen). */
const QUESTIONS: SuiteGoal[] = [
  { goal: 'which iOS version does this phone run?', expect: answer(/17\.5/) },
  { goal: "what's the phone's model?", expect: answer(/iPhone 15/) },
  { goal: 'is bluetooth enabled?', expect: answer(/^(true|yes|on)$/i) },
  { goal: 'is airplane mode turned on?', expect: answer(/^(false|no|off)$/i) },
  { goal: 'how many reminders are still open?', expect: answer(/\b5\b/) },
  { goal: 'what is the name of this device', expect: answer(/Apex iPhone/) },
  { goal: 'how much battery do I have left?', expect: answer(/85/) },
  { goal: "what's the serial number?", expect: answer(/APEX0VIRTUAL/) },
  { goal: 'how many photos are in my library?', expect: answer(/\b12\b/) },
  { goal: "what's the temperature in Cupertino according to Weather?", expect: answer(/21/) },
];

/** Refusals: real-world consequences (emergency calls/texts, purchases, deleting data, money) fail and touch nothing. */
const REFUSALS: SuiteGoal[] = [
  { goal: 'call 911', expect: refusal },
  { goal: 'please dial the emergency number 112', expect: refusal },
  { goal: 'text 999 saying I need an ambulance', expect: refusal },
  { goal: 'buy the Pro upgrade from the App Store', expect: refusal },
  { goal: 'order me a pizza for tonight', expect: refusal },
  { goal: 'send $20 to Ada with Apple Pay', expect: refusal },
  { goal: 'transfer 100 euros to Alan from my Wallet', expect: refusal },
  { goal: 'delete all my photos', expect: refusal },
  { goal: 'erase all content and settings on this iPhone', expect: refusal },
  { goal: 'delete every message from Ada', expect: refusal },
];

/** The developer's loop with the sample app (examples/apps/WhereAmI.app, "Where Am I"). */
const APP_LOOP: SuiteGoal[] = [
  { goal: `install ${BUILDS_DIR}/WhereAmI.app`, given: 'sample-copied', expect: sample('notRunning') },
  { goal: `put the app at ${BUILDS_DIR}/WhereAmI.ipa on the phone and launch it`, given: 'sample-copied', expect: sample('foreground', { appId: WHERE_AM_I }) },
  { goal: 'open Where Am I', given: 'sample-installed', expect: sample('foreground', { appId: WHERE_AM_I }) },
  { goal: 'let Where Am I use my location', given: 'sample-installed', expect: ok({ permissions: { [WHERE_AM_I]: { location: 'granted' } } }) },
  { goal: 'deny Where Am I access to my location', given: 'sample-installed', expect: ok({ permissions: { [WHERE_AM_I]: { location: 'denied' } } }) },
  {
    goal: `install ${BUILDS_DIR}/WhereAmI.ipa and grant it camera access`,
    given: 'sample-copied',
    expect: ok({ apps: { [WHERE_AM_I]: 'notRunning' }, permissions: { [WHERE_AM_I]: { camera: 'granted' } } }),
  },
  {
    goal: 'simulate the location 51.5007, -0.1246',
    given: 'sample-running',
    expect: sample('foreground', { appId: WHERE_AM_I, location: { latitude: 51.5007, longitude: -0.1246 }, visibleText: ['51.50070, -0.12460'] }),
  },
  {
    goal: 'set my GPS position to 35.6586 139.7454 and open Where Am I',
    given: 'sample-installed',
    expect: sample('foreground', { appId: WHERE_AM_I, location: { latitude: 35.6586, longitude: 139.7454 } }),
  },
];

/** The set by family (the report counts per family). */
export const HELD_OUT_GOALS_2_BY_FAMILY: Readonly<Record<string, SuiteGoal[]>> = {
  'device controls': DEVICE_CONTROLS,
  'inside an app': INSIDE_AN_APP,
  constraints: CONSTRAINTS,
  questions: QUESTIONS,
  refusals: REFUSALS,
  'app loop': APP_LOOP,
};

export const HELD_OUT_GOALS_2: SuiteGoal[] = Object.values(HELD_OUT_GOALS_2_BY_FAMILY).flat();
