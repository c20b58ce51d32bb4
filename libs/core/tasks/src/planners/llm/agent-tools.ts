import { inputJsonSchema, operationsIn, type AnyOperation, type JsonSchemaObject, type Toolset } from '@apex/capability';
import type { ScreenDescriptionResult } from '@apex/perception';

/** A tool offered to a model: a catalog operation (minus its device argument) or a control tool. */
export interface AgentTool {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

export const FINISH_TOOL = 'finish_task';
export const GIVE_UP_TOOL = 'give_up';

/**
 * Operations a task's model is not offered: the task already names its device, and the planners send the model
 * text only (an image result would reach it as a line saying an image was taken).
 */
const HIDDEN = new Set(['list_devices', 'take_screenshot']);

const CONTROL_TOOLS: AgentTool[] = [
  {
    name: FINISH_TOOL,
    description: 'Call when the goal is reached (check the screen first). `result`: a short answer or summary for the user.',
    parameters: {
      type: 'object',
      properties: { result: { type: 'string', maxLength: 2000, description: 'Short answer or summary' } },
      required: ['result'],
      additionalProperties: false,
    },
  },
  {
    name: GIVE_UP_TOOL,
    description: 'Call when the goal cannot be reached on this device; `reason` says why in one sentence.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 2000 } },
      required: ['reason'],
      additionalProperties: false,
    },
  },
];

/**
 * The tools a model plans with: each catalog operation's own name, description and input schema (converted
 * from its zod schema), without the `device` argument, plus finish_task and give_up.
 */
export function agentTools(operations: readonly AnyOperation[]): AgentTool[] {
  const tools = operations
    .filter((op) => !HIDDEN.has(op.name))
    .map((op) => ({ name: op.name, description: op.description, parameters: withoutDevice(inputJsonSchema(op)) }));
  return [...tools, ...CONTROL_TOOLS];
}

/**
 * What a step's tools come from: operating and seeing the screen. A step's tool list is sent with every model
 * request, and the whole catalog cost ~3,000 tokens of ~3,900 per step (issue 16): each step offers the tools
 * of these toolsets, except those kept for when the screen or the goal calls for them, and the tools outside
 * them that the goal names (issue 33: under 1,500 tokens a step, counted as characters / 4).
 */
const STEP_TOOLSETS: readonly Toolset[] = ['act', 'observe'];

/** Of the step toolsets, never offered: the planner sends the screen after every action already. */
const SCREEN_SENT = new Set(['describe_screen']);

/** Of the step toolsets, offered only when the screen or the goal calls for them. */
const OFFERED_WHEN: Readonly<Record<string, (goal: string, screen: ScreenDescriptionResult) => boolean>> = {
  handle_alert: (_goal, screen) => Boolean(screen.alert),
  hide_keyboard: (_goal, screen) => screen.keyboardVisible,
  // A sparse tree (pixels: a web page, a game) or elements left out of the description: find it by its text.
  find_text: (goal, screen) => screen.elements.length < 3 || screen.omittedElements > 0 || /\bfind\b|\blook for\b|\bread\b/i.test(goal),
  wait_for: (goal) => /\bwait|\buntil\b|\bappears?\b|\bload/i.test(goal),
};

/**
 * Outside the step toolsets, an operation is offered once the goal says one of these; one without an entry
 * once the goal says a word of its name (install_app: "install"), so a new operation is reachable unlisted.
 */
const GOAL_WORDS: Readonly<Record<string, RegExp>> = {
  double_tap: /\bdouble[- ]?(?:tap|click)/i,
  long_press: /\blong[- ]?press|\bpress and hold|\btouch and hold|\bhold\b/i,
  pinch: /\bpinch|\bzoom/i,
  find_icon: /\bicons?\b/i,
  get_ui_tree: /\b(?:ui|accessibility|element) tree|\bhierarchy/i,
  device_status: /\bbattery|\bstatus|\bmodel\b|\bos version|\bfront(?:most)? app/i,
  terminate_app: /\b(?:close|quit|kill|terminate|force[- ]stop)\b/i,
  list_apps: /\binstalled|\bwhich apps|\blist (?:the |all )?apps/i,
  open_url: /\burls?\b|\blinks?\b|\bwebsite|\bweb page|https?:\/\/|\bdeep[- ]?link/i,
  set_orientation: /\blandscape|\bportrait|\brotat|\borientation/i,
  set_appearance: /\bdark mode|\blight mode|\bappearance|\bdark theme|\blight theme/i,
  set_lock: /\block|\bunlock/i,
  get_clipboard: /\bclipboard|\bpaste|\bcopied/i,
  set_clipboard: /\bclipboard|\bcopy\b/i,
};

/** Name words too common to call for an operation on their own. */
const GENERIC_NAME_WORDS = new Set(['set', 'get', 'app', 'apps', 'list', 'add', 'send', 'to']);

function goalCalls(name: string, goal: string): boolean {
  const words = GOAL_WORDS[name];
  if (words) return words.test(goal);
  const own = name.split('_').filter((word) => word.length > 2 && !GENERIC_NAME_WORDS.has(word));
  return own.some((word) => new RegExp(`\\b${word}`, 'i').test(goal));
}

/**
 * The tools of a task's model: `all` (every catalog operation the model may call, plus finish_task and
 * give_up) and, per step, the few it is offered.
 */
export class AgentToolbox {
  readonly all: AgentTool[];
  private readonly stepBase = new Set<string>();

  constructor(operations: readonly AnyOperation[]) {
    this.all = agentTools(operations);
    for (const op of operationsIn(operations, STEP_TOOLSETS)) if (!SCREEN_SENT.has(op.name) && !OFFERED_WHEN[op.name]) this.stepBase.add(op.name);
  }

  /**
   * The tools one step offers: the step toolsets (some only when the screen or the goal calls for them), the
   * tools the goal names, the ones offered before in this task (`offered`, updated: a conversation keeps the
   * tools its earlier turns used), finish_task and give_up. In catalog order.
   */
  forStep(goal: string, screen: ScreenDescriptionResult, offered: Set<string>): AgentTool[] {
    return this.all.filter((tool) => {
      const when = OFFERED_WHEN[tool.name];
      const wanted =
        offered.has(tool.name) ||
        this.stepBase.has(tool.name) ||
        tool.name === FINISH_TOOL ||
        tool.name === GIVE_UP_TOOL ||
        (when ? when(goal, screen) : !SCREEN_SENT.has(tool.name) && goalCalls(tool.name, goal));
      if (wanted) offered.add(tool.name);
      return wanted;
    });
  }
}

function withoutDevice(schema: JsonSchemaObject): JsonSchemaObject {
  const properties = { ...(schema.properties ?? {}) };
  delete properties['device'];
  const required = (schema.required ?? []).filter((name) => name !== 'device');
  const result: JsonSchemaObject = { ...schema, type: 'object', properties };
  if (required.length > 0) result.required = required;
  else delete result.required;
  return result;
}
