import { ApexError } from '@apex/errors';
import type { Observation } from '../../agent/observation';
import type { Decision, Planner, PlannerContext, PlannerSession, StepFeedback } from '../../agent/planner';
import type { TaskUsage } from '../../model/task';
import { FINISH_TOOL, GIVE_UP_TOOL, type AgentTool, type AgentToolbox } from './agent-tools';
import type { ChatBackend, ChatBackendFactory, ToolCall, ToolResult } from './chat-backend';

/** Model turns in a row without a usable tool call before the planner gives up. */
const MAX_IDLE_TURNS = 3;

/**
 * What the model is told. By ref (the default): act on elements by their ref, and every action's result already
 * describes the settled screen after it. `byRef` false: the prompt of the way before refs (tap centres).
 */
export function systemPrompt(deviceId: string, byRef = true): string {
  const how = byRef
    ? [
        'After each action you get its outcome and the screen after it, settled: no describe_screen needed. Each element line is `ref role "label" = value @x,y`.',
        'Act on elements by ref from the latest screen (tap {"ref":"e12"}; input_text and swipe take ref too); x,y only for a point no element names. Switches show on/off. Swipe direction "up" reveals what is below.',
      ]
    : [
        'After each action you get its outcome and a description of the screen: elements with their role, label, value and tap `center` in points.',
        'Tap centers from the latest description. Switch values are "1" (on) or "0" (off). Scroll with swipe (direction "up" reveals what is below).',
      ];
  return [
    `You operate a phone (device "${deviceId}") to reach the user's goal, one tool call at a time.`,
    ...how,
    `When the goal is reached, call ${FINISH_TOOL} with a short result. If it cannot be reached, call ${GIVE_UP_TOOL} with the reason.`,
  ].join('\n');
}

/** A planner that asks a model with tool calling; the wire format is the backend's business. */
export class LlmPlanner implements Planner {
  constructor(
    readonly name: string,
    private readonly backendFactory: ChatBackendFactory,
    private readonly tools: AgentToolbox,
  ) {}

  begin(context: PlannerContext): PlannerSession {
    return new LlmSession(context, this.backendFactory, this.tools, this.name);
  }
}

class LlmSession implements PlannerSession {
  private readonly name: string;
  private backend?: ChatBackend;
  private pending: ToolCall[] = [];
  private answered: ToolResult[] = [];
  private current?: ToolCall;
  private readonly spent: TaskUsage = { inputTokens: 0, outputTokens: 0 };
  private readonly toolNames: Set<string>;
  /** The tools offered so far: a step offers them again, and what its screen and the goal call for. */
  private readonly offered = new Set<string>();

  constructor(
    private readonly context: PlannerContext,
    private readonly backendFactory: ChatBackendFactory,
    private readonly tools: AgentToolbox,
    name: string,
  ) {
    this.name = name;
    this.toolNames = new Set(tools.all.map((t) => t.name));
  }

  usage(): TaskUsage {
    return { ...this.spent };
  }

  async decide(observation: Observation, feedback?: StepFeedback): Promise<Decision> {
    if (!this.backend) {
      this.backend = this.backendFactory(
        systemPrompt(this.context.deviceId, this.context.actByRef !== false),
        `Goal: ${this.context.goal}\n\nThe screen now:\n${observation.screen.text}`,
      );
    } else if (this.current) {
      this.answered.push(resultOf(this.current, feedback));
      this.current = undefined;
    }
    const backend = this.backend;
    const tools = this.tools.forStep(this.context.goal, observation.screen, this.offered);
    for (let idle = 0; idle < MAX_IDLE_TURNS; ) {
      if (this.pending.length === 0) {
        if (this.answered.length > 0) {
          const last = this.answered[this.answered.length - 1];
          last.content += `\n\nThe screen now:\n${observation.screen.text}`;
          backend.addToolResults(this.answered);
          this.answered = [];
        }
        const turn = await this.ask(backend, tools);
        this.spent.inputTokens += turn.inputTokens;
        this.spent.outputTokens += turn.outputTokens;
        if (turn.calls.length === 0) {
          idle += 1;
          backend.addUserText(`Reply with exactly one tool call: an operation, ${FINISH_TOOL} or ${GIVE_UP_TOOL}.`);
          continue;
        }
        this.pending = [...turn.calls];
      }
      const call = this.pending.shift() as ToolCall;
      const args = call.args;
      if (call.invalid) {
        this.answered.push({ id: call.id, content: `error invalid_argument: ${call.invalid}. Call the tool again with a JSON object.`, isError: true });
        idle += 1;
        continue;
      }
      if (call.name === FINISH_TOOL) {
        this.answered.push({ id: call.id, content: 'ok', isError: false });
        return { kind: 'done', result: stringArg(args['result']) ?? 'Done.' };
      }
      if (call.name === GIVE_UP_TOOL) {
        this.answered.push({ id: call.id, content: 'ok', isError: false });
        return { kind: 'fail', message: stringArg(args['reason']) ?? 'The model gave up.', reason: 'infeasible' };
      }
      if (!this.toolNames.has(call.name)) {
        this.answered.push({ id: call.id, content: `error invalid_argument: there is no tool "${call.name}".`, isError: true });
        idle += 1;
        continue;
      }
      this.current = call;
      // A catalog tool this step did not offer (the model knew it): offered from now on, as the history names it.
      this.offered.add(call.name);
      return { kind: 'act', action: { operation: call.name, arguments: args } };
    }
    return { kind: 'fail', message: 'The model did not choose an action.', reason: 'planner_error' };
  }

  /** One model request; SDK failures become errors that say what to check, without raw network text. */
  private async ask(backend: ChatBackend, tools: AgentTool[]) {
    try {
      return await backend.next(this.context.signal, tools);
    } catch (error) {
      if (this.context.signal.aborted) throw error;
      const status = (error as { status?: unknown }).status;
      if (typeof status === 'number') {
        const what = status === 401 || status === 403 ? ': check the API key' : status === 404 ? ': check the base URL and the model name' : status === 429 ? ': rate limited' : '';
        throw new ApexError('internal', `The ${this.name} model endpoint answered HTTP ${status}${what}.`, { cause: error });
      }
      throw new ApexError('internal', `The ${this.name} model endpoint could not be reached; check its base URL.`, { cause: error });
    }
  }
}

function resultOf(call: ToolCall, feedback: StepFeedback | undefined): ToolResult {
  if (!feedback) return { id: call.id, content: 'Not run.', isError: true };
  if (feedback.loopWarning) return { id: call.id, content: `Not run: ${feedback.loopWarning}`, isError: true };
  const { outcome, result } = feedback;
  if (outcome.status === 'error') return { id: call.id, content: `error ${outcome.code ?? 'internal'}: ${outcome.detail}`, isError: true };
  // The screen after the action follows as "The screen now": not a second time inside the action's own summary.
  const own = result ? (result.actionSummary ?? result.summary) : undefined;
  const summary = own && own !== outcome.detail ? `\n${own}` : '';
  return { id: call.id, content: `${outcome.status}: ${outcome.detail}${summary}`, isError: false };
}

function stringArg(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 2_000) : undefined;
}
