import { DEVICE_OPERATIONS } from '@apex/capability';
import type { ScreenDescriptionResult } from '@apex/perception';
import { AgentToolbox, agentTools, type AgentTool } from './agent-tools';

/**
 * A step's tool definitions, in characters of their JSON (what a backend sends, before its own wrapping);
 * tokens are estimated as characters / 4, the usual rule of thumb for English and JSON.
 */
const charsOf = (tools: AgentTool[]) => JSON.stringify(tools).length;
const CHARS_PER_TOKEN = 4;
const TOKEN_BUDGET = 1_500;

const ELEMENTS: ScreenDescriptionResult['elements'] = ['Wi-Fi', 'Bluetooth', 'Airplane Mode'].map((label, i) => ({
  ref: `e${i + 1}`,
  nodeId: `n${i}`,
  role: 'switch',
  label,
  value: '0',
  center: { x: 340, y: 150 + 50 * i },
}));

function screen(overrides: Partial<ScreenDescriptionResult> = {}): ScreenDescriptionResult {
  return {
    app: { appId: 'com.example.settings', name: 'Settings' },
    screen: { width: 390, height: 844, scale: 3 },
    orientation: 'portrait',
    keyboardVisible: false,
    elements: ELEMENTS,
    omittedElements: 0,
    refs: {},
    staticText: [],
    ocrText: [],
    text: 'Settings',
    ...overrides,
  };
}

const names = (tools: AgentTool[]) => tools.map((t) => t.name);
const EVERY_STEP = ['tap', 'swipe', 'input_text', 'press_button', 'launch_app', 'finish_task', 'give_up'];

describe('the tools a step offers a model', () => {
  const toolbox = new AgentToolbox(DEVICE_OPERATIONS);

  it('offers operating the screen, without describe_screen (the screen follows every action)', () => {
    expect(names(toolbox.forStep('Turn on Airplane Mode', screen(), new Set()))).toEqual(EVERY_STEP);
  });

  it.each([
    ['an alert', screen({ alert: { title: 'Allow?', buttons: ['Allow', 'Deny'] } }), 'handle_alert'],
    ['the keyboard', screen({ keyboardVisible: true }), 'hide_keyboard'],
    ['a tree without elements (pixels only)', screen({ elements: [] }), 'find_text'],
    ['elements left out of the description', screen({ omittedElements: 12 }), 'find_text'],
  ])('adds a tool while the screen shows %s, and keeps it for the rest of the task', (_what, shown, tool) => {
    const offered = new Set<string>();
    expect(names(toolbox.forStep('Sign in', shown, offered))).toEqual(expect.arrayContaining([tool]));
    expect(names(toolbox.forStep('Sign in', screen(), offered))).toContain(tool);
    expect(names(toolbox.forStep('Sign in', screen(), new Set()))).not.toContain(tool);
  });

  it.each([
    ['Long press the Photos icon', ['long_press', 'find_icon']],
    ['Zoom into the map', ['pinch']],
    ['Open https://example.com in the browser', ['open_url']],
    ['Switch to dark mode', ['set_appearance']],
    ['Copy the address to the clipboard', ['get_clipboard', 'set_clipboard']],
    ['Close the Settings app', ['terminate_app']],
    ['Wait until the download finishes', ['wait_for']],
    ['Find the word "Privacy" on the page', ['find_text']],
  ])('adds what the goal names: "%s" → %s', (goal, extra) => {
    const tools = names(toolbox.forStep(goal, screen(), new Set()));
    expect(tools).toEqual([...new Set([...tools, ...extra])]);
    expect(tools).toEqual(expect.arrayContaining([...EVERY_STEP, ...extra]));
    expect(tools).not.toContain('describe_screen');
  });

  it('offers an operation the goal names by a word of its name, when it has no words of its own', () => {
    const installApp = { ...DEVICE_OPERATIONS[0], name: 'install_app', toolset: 'apps' as const };
    const toolboxWithInstall = new AgentToolbox([...DEVICE_OPERATIONS, installApp]);
    expect(names(toolboxWithInstall.forStep('Install the build and open it', screen(), new Set()))).toContain('install_app');
    expect(names(toolboxWithInstall.forStep('Turn on Wi-Fi', screen(), new Set()))).not.toContain('install_app');
  });

  it(`brings a step under ${TOKEN_BUDGET} tokens (characters / ${CHARS_PER_TOKEN}), from ~3,000 for the whole catalog`, () => {
    // Before issue 33 every step offered every operation.
    expect(charsOf(agentTools(DEVICE_OPERATIONS)) / CHARS_PER_TOKEN).toBeGreaterThan(2 * TOKEN_BUDGET);
    const steps: [string, ScreenDescriptionResult][] = [
      ['Turn on Airplane Mode', screen()],
      ['Sign in as test@example.com', screen({ keyboardVisible: true, alert: { title: 'Save password?', buttons: ['Not Now', 'Save'] }, omittedElements: 3 })],
      ['Long press the Photos icon', screen()],
      ['Switch to dark mode, rotate to landscape and wait until the page loads', screen()],
    ];
    // A goal naming several rare gestures on a pixels-only screen may still pass it (long press + icon + zoom +
    // find_text: ~1,630): those are the tools that step needs.
    for (const [goal, shown] of steps) {
      const tokens = charsOf(toolbox.forStep(goal, shown, new Set())) / CHARS_PER_TOKEN;
      expect({ goal, underBudget: tokens < TOKEN_BUDGET }).toEqual({ goal, underBudget: true });
    }
  });
});
