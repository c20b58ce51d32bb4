/**
 * Held-out phrasings for issue 38: written (and committed) before the planner's new grammar, as a new user
 * would type them, and kept OUT of the goal suite. They measure how far the grammar generalizes; the spec
 * that runs them reports which pass, and those known not to pass are marked there, not dropped.
 */
import { BUILDS_DIR, type GoalExpectation, type SuiteGoal } from './goal-suite';

const HOME = 'com.apple.springboard';
const SETTINGS = 'com.apple.Preferences';
const REMINDERS = 'com.apple.reminders';
const MESSAGES = 'com.apple.MobileSMS';
const WHERE_AM_I = 'dev.apex.WhereAmI';
const refusedUntouched: GoalExpectation = { status: 'failed', reason: 'infeasible', untouched: true, appId: HOME };

export const HELD_OUT_GOALS: SuiteGoal[] = [
  // Device controls.
  { goal: 'lock my iPhone', expect: { status: 'succeeded', locked: true } },
  { goal: 'put the phone to sleep', expect: { status: 'succeeded', locked: true } },
  { goal: 'open Notes and switch to landscape', expect: { status: 'succeeded', appId: 'com.apple.mobilenotes', orientation: 'landscape' } },
  { goal: 'switch the phone to dark appearance', expect: { status: 'succeeded', appearance: 'dark' } },
  { goal: 'copy "meet at 5" to the clipboard', expect: { status: 'succeeded', clipboard: 'meet at 5' } },
  { goal: 'open Maps and then close it', expect: { status: 'succeeded', appId: HOME } },
  { goal: 'open Calendar, then exit to the home screen', expect: { status: 'succeeded', appId: HOME } },
  { goal: 'visit apex.example/docs in Safari', expect: { status: 'succeeded', appId: 'com.apple.mobilesafari', typed: 'https://apex.example/docs' } },
  // Inside an app.
  { goal: 'in Clock, show me the stopwatch', expect: { status: 'succeeded', appId: 'com.apple.mobiletimer', selected: ['Stopwatch'] } },
  { goal: 'go to the alarms tab in Clock', expect: { status: 'succeeded', appId: 'com.apple.mobiletimer', selected: ['Alarms'] } },
  { goal: 'tick off Water the plants in Reminders', expect: { status: 'succeeded', appId: REMINDERS, selected: ['Water the plants'], notSelected: ['Buy milk'] } },
  { goal: 'mark "Pay the electricity bill" as complete', expect: { status: 'succeeded', appId: REMINDERS, selected: ['Pay the electricity bill'] } },
  { goal: 'message Ada: on my way', expect: { status: 'succeeded', appId: MESSAGES, sent: 'on my way' } },
  { goal: "send a text to Ada that says 'call me back'", expect: { status: 'succeeded', appId: MESSAGES, sent: 'call me back' } },
  { goal: 'look up pizza in Maps', expect: { status: 'succeeded', appId: 'com.apple.Maps', typed: 'pizza' } },
  // Constraints.
  { goal: 'disable bluetooth but keep wifi on', expect: { status: 'succeeded', appId: SETTINGS, switches: { Bluetooth: false, 'Wi-Fi': true, 'Airplane Mode': false } } },
  // Questions.
  { goal: 'what version of iOS is running?', expect: { status: 'succeeded', answer: /^17\.5$/ } },
  { goal: 'how many reminders do I still have?', expect: { status: 'succeeded', answer: /^5$/ } },
  { goal: 'is bluetooth enabled?', expect: { status: 'succeeded', answer: /^(?:yes|true|on)$/i } },
  // Refusals.
  { goal: 'call 911', expect: refusedUntouched },
  { goal: 'buy the Pro subscription in the App Store', expect: refusedUntouched },
  { goal: 'delete all my photos', expect: refusedUntouched },
  { goal: 'send $20 to Ada', expect: refusedUntouched },
  // The developer's loop (issue 38 × issue 33), written before the planner maps it.
  { goal: `put ${BUILDS_DIR}/WhereAmI.ipa on the phone`, given: 'sample-copied', expect: { status: 'succeeded', apps: { [WHERE_AM_I]: 'notRunning' } } },
  { goal: 'let Where Am I see my location', given: 'sample-installed', expect: { status: 'succeeded', permissions: { [WHERE_AM_I]: { location: 'granted' } } } },
  { goal: 'block the camera for Where Am I', given: 'sample-installed', expect: { status: 'succeeded', permissions: { [WHERE_AM_I]: { camera: 'denied' } } } },
  { goal: 'simulate my location at 51.5007, -0.1246', expect: { status: 'succeeded', location: { latitude: 51.5007, longitude: -0.1246 } } },
  { goal: 'is Where Am I open?', given: 'sample-running', expect: { status: 'succeeded', answer: /^true$/, apps: { [WHERE_AM_I]: 'foreground' } } },
  { goal: "wipe Where Am I's data", given: 'sample-running', expect: { status: 'succeeded', apps: { [WHERE_AM_I]: 'notRunning' }, permissions: { [WHERE_AM_I]: { location: 'unset' } } } },
  // Written by the lead, who had not read the planner's grammar or its parse output (issue 38: "written by
  // someone else"), before running them once; the spec marks the ones that do not pass.
  // Corrected after the first run, about the phone and not the phrasing: this iPhone 15's home screen stays
  // upright (as a real one does), so the goal starts with an app in front, as its writer took for granted.
  { goal: 'rotate the screen to landscape', given: 'sample-running', expect: { status: 'succeeded', orientation: 'landscape' } },
  { goal: 'turn on dark mode please', expect: { status: 'succeeded', appearance: 'dark' } },
  { goal: 'put "hello world" on the clipboard', expect: { status: 'succeeded', clipboard: 'hello world' } },
  { goal: 'launch Settings and lock the screen', expect: { status: 'succeeded', locked: true } },
  { goal: 'switch to the Timers tab in the Clock app', expect: { status: 'succeeded', appId: 'com.apple.mobiletimer', selected: ['Timers'] } },
  { goal: 'in Reminders, complete Buy milk', expect: { status: 'succeeded', appId: REMINDERS, selected: ['Buy milk'] } },
  { goal: "tell Ada 'running 10 minutes late'", expect: { status: 'succeeded', appId: MESSAGES, sent: 'running 10 minutes late' } },
  { goal: 'find coffee shops in Maps', expect: { status: 'succeeded', appId: 'com.apple.Maps', typed: 'coffee shops' } },
  { goal: 'turn off Wi-Fi and leave everything else as it is', expect: { status: 'succeeded', appId: SETTINGS, switches: { 'Wi-Fi': false, Bluetooth: true, 'Airplane Mode': false } } },
  { goal: 'which iOS version does this phone run?', expect: { status: 'succeeded', answer: /^17\.5$/ } },
  { goal: 'is airplane mode on?', expect: { status: 'succeeded', answer: /^(?:no|false|off)$/i } },
  { goal: 'buy the premium plan in the App Store', expect: refusedUntouched },
  { goal: 'transfer 50 dollars to Ada', expect: refusedUntouched },
  { goal: 'erase everything on this phone', expect: refusedUntouched },
];
