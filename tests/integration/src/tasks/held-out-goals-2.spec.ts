import { endStateProblems, HELD_OUT_GOALS_2, taskProblems, type GoalExpectation } from '@apex/tasks/testing';
import { eachHeldOutGoal, prepareGoal, startTaskStack } from './support';

/**
 * The second held-out set (libs/core/tasks/src/testing/held-out-goals-2.ts, written without seeing the planner's
 * grammar) on the virtual iPhone, end states checked on the phone. Those the planner does not handle yet are
 * listed here and run as `it.failing`: they must still fail, so a goal that starts to pass shows up.
 */
const KNOWN_FAILING = new Set<string>([
  // Not understood ("I cannot do … without a model"): "put TEXT on my clipboard", "don't let it access my location",
  // "APP: go to TAB", "mark both X and Y" (split at "and"), a message with a comma (split at it), "in APP search
  // for TEXT", the constraints "leave X as they are" / "keep the screen unlocked" / "without changing the
  // appearance", "simulate the location", "GPS position LAT LON" (no comma).
  'put the text apex-1234 on my clipboard',
  "open maps but don't let it access my location",
  'Music: go to Radio',
  'mark both Buy milk and Call the dentist as done',
  'reply to Ada: sounds great, see you',
  'in Maps search for Market Street',
  'turn on airplane mode and leave wifi and bluetooth as they are',
  'go to dark mode but keep the screen unlocked',
  'rotate to landscape without changing the appearance',
  'simulate the location 51.5007, -0.1246',
  'set my GPS position to 35.6586 139.7454 and open Where Am I',
  // Read as an app name ("There is no app named …"): "the page URL", "my photos", "my library", "Cupertino according to Weather".
  'open the page https://apex.example/docs',
  'search my photos for beach',
  'how many photos are in my library?',
  "what's the temperature in Cupertino according to Weather?",
  // The rest of the sentence kept as the target's name (target_not_found): "the Safari row in Settings" (looked
  // for on the home screen), "wifi without touching bluetooth", "both wifi".
  'scroll down to the Safari row in Settings',
  'disable wifi without touching bluetooth',
  'turn off both wifi and bluetooth, but do not enable airplane mode',
  // "open Clock and go to Alarms" was a false success ("Opened Clock; Opened Clock.", the tab never selected); it
  // passes since the lead's fix, made after seeing it fail here (so it is no longer held-out evidence).
]);

/** What the phone must show, leaving out what only the task reports (its status, reason, answer, steps). */
function phoneOnly({ status: _status, reason: _reason, answer: _answer, untouched: _untouched, ...phone }: GoalExpectation): Partial<GoalExpectation> {
  return phone;
}

describe('held-out goals, second set, on the virtual iPhone', () => {
  const body = async (_goal: string, suiteGoal: (typeof HELD_OUT_GOALS_2)[number]) => {
    const stack = await startTaskStack();
    try {
      const { expect: wanted } = suiteGoal;
      const goal = await prepareGoal(stack, suiteGoal);
      // A goal whose end state the phone already has before the task would check nothing.
      const phone = phoneOnly(wanted);
      if (!wanted.untouched && Object.keys(phone).length > 0) {
        expect(endStateProblems(stack.endState(), { status: wanted.status, ...phone })).not.toEqual([]);
      }
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal })).id);
      const problems = [...taskProblems(task, wanted), ...endStateProblems(stack.endState(), wanted)];
      expect({ problems, task: problems.length ? { status: task.status, error: task.error, result: task.result } : undefined }).toEqual({ problems: [], task: undefined });
    } finally {
      await stack.close();
    }
  };
  eachHeldOutGoal(HELD_OUT_GOALS_2, KNOWN_FAILING, body);
});
