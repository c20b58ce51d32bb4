import { ApexError } from '@apex/errors';
import type { OperationResult } from '@apex/capability';
import type { ScreenDescriptionResult } from '@apex/perception';
import type { TaskDevices } from '../service/task-devices';

/**
 * A tiny stand-in phone for unit tests of the task service and planners: a home screen with two app icons and
 * a Settings screen with switches, answering the catalog operations the agent uses with the catalog's result
 * shapes. It is not a device model: integration tests run tasks on the virtual iPhone through the real driver.
 */
export interface ScriptedPhoneState {
  app: 'home' | 'settings' | 'notes';
  switches: Record<string, boolean>;
  noteText: string;
  keyboard: boolean;
}

const SETTINGS = 'com.example.settings';
const NOTES = 'com.example.notes';
const SWITCH_ROWS = ['Airplane Mode', 'Wi-Fi', 'Bluetooth'];
const READ_ONLY = new Set(['describe_screen', 'find_text', 'find_icon', 'list_apps', 'take_screenshot', 'get_ui_tree', 'device_status']);
/** The actions that take `observe` (as the catalog's do): "describe" answers the settled screen after them. */
const OBSERVING = new Set(['tap', 'swipe', 'input_text', 'launch_app', 'press_button']);

export class ScriptedPhone {
  state: ScriptedPhoneState = { app: 'home', switches: { 'Airplane Mode': false, 'Wi-Fi': true, Bluetooth: true }, noteText: '', keyboard: false };
  /** Every operation run, in order. */
  readonly log: Array<{ operation: string; args: Record<string, unknown> }> = [];
  /** Delay of each mutating action (ms). */
  actionDelayMs = 0;
  /** While set, mutating actions wait for it. */
  gate?: Promise<void>;
  /** The next this many observations fail as a device timeout would. */
  failObservations = 0;
  /** Like a real transition: after each action, this many observations still show the screen before it. */
  lagObservations = 0;
  private stale?: { screen: ScreenDescriptionResult; left: number };

  describe(): ScreenDescriptionResult {
    const elements: ScreenDescriptionResult['elements'] = [];
    const add = (role: string, label: string, y: number, value?: string, x = 195) => {
      elements.push({ ref: `e${elements.length + 1}`, nodeId: `n-${label}`, role: role as never, label, value, center: { x, y } });
    };
    if (this.state.app === 'home') {
      add('icon', 'Settings', 100, undefined, 60);
      add('icon', 'Notes', 100, undefined, 150);
    } else if (this.state.app === 'settings') {
      SWITCH_ROWS.forEach((label, i) => add('switch', label, 150 + i * 50, this.state.switches[label] ? '1' : '0', 340));
    } else {
      add('textField', 'Note', 200, this.state.noteText);
      if (this.state.keyboard) add('button', 'Done', 60, undefined, 350);
    }
    const appName = { home: 'Home Screen', settings: 'Settings', notes: 'Notes' }[this.state.app];
    const appId = { home: 'com.example.home', settings: SETTINGS, notes: NOTES }[this.state.app];
    return {
      app: { appId, name: appName },
      screen: { width: 390, height: 844, scale: 3 },
      orientation: 'portrait',
      keyboardVisible: this.state.keyboard,
      elements,
      omittedElements: 0,
      refs: {},
      staticText: [],
      ocrText: [],
      text: `${appName}\n${elements.map((e) => `[${e.ref}] ${e.role} "${e.label}"${e.value !== undefined ? ` value=${e.value}` : ''} at (${e.center.x}, ${e.center.y})`).join('\n')}`,
    };
  }

  async run(operation: string, args: Record<string, unknown>): Promise<OperationResult> {
    this.log.push({ operation, args });
    if (!READ_ONLY.has(operation)) {
      if (this.gate) await this.gate;
      if (this.actionDelayMs) await new Promise((resolve) => setTimeout(resolve, this.actionDelayMs));
      if (this.lagObservations > 0) this.stale = { screen: this.describe(), left: this.lagObservations };
    }
    if (operation === 'describe_screen' && this.failObservations > 0) {
      this.failObservations -= 1;
      throw new ApexError('device_timeout', 'The scripted phone did not answer in time.');
    }
    if (operation === 'describe_screen') {
      const screen = this.look();
      const { refs: _refs, text: _text, ...output } = screen;
      return { output, summary: screen.text, screen };
    }
    const { observe, ...rest } = args;
    const output = this.apply(operation, rest);
    // Like the catalog's actions: the screen after them, as a look then shows it (a lagging one still the old one).
    const image = operation === 'take_screenshot' ? { data: Buffer.from('jpeg'), mimeType: 'image/jpeg' as const } : undefined;
    const line = JSON.stringify(output).slice(0, 200);
    if (observe === 'describe' && OBSERVING.has(operation)) {
      const screen = this.look();
      const { refs: _refs, text: _text, ...slim } = screen;
      output['observed'] = { app: screen.app, keyboardVisible: screen.keyboardVisible, screen: slim };
      return { output, summary: `${line}\n${screen.text}`, actionSummary: line, screen, image };
    }
    return { output, summary: line, image };
  }

  /** What an observation shows: the screen before the last action while it lags, else the screen now. */
  private look(): ScreenDescriptionResult {
    if (this.stale && this.stale.left > 0) {
      this.stale.left -= 1;
      return this.stale.screen;
    }
    return this.describe();
  }

  private apply(operation: string, args: Record<string, unknown>): Record<string, unknown> {
    switch (operation) {
      case 'list_apps':
        return { apps: [{ appId: SETTINGS, name: 'Settings' }, { appId: NOTES, name: 'Notes' }] };
      case 'find_text':
      case 'find_icon':
        return { matches: [] };
      case 'take_screenshot':
        return { format: 'jpeg', mimeType: 'image/jpeg', width: 1, height: 1, pixelsPerPoint: 1, bytes: 4 };
      case 'launch_app':
        if (args['appId'] === SETTINGS) this.state.app = 'settings';
        else if (args['appId'] === NOTES) this.state.app = 'notes';
        else throw new ApexError('app_not_found', `App ${String(args['appId'])} is not installed.`);
        this.state.keyboard = false;
        return { launched: args['appId'] };
      case 'press_button':
        this.state.app = 'home';
        this.state.keyboard = false;
        return { pressed: args['button'] };
      case 'swipe':
        return { direction: args['direction'] };
      case 'input_text':
        if (typeof args['ref'] === 'string' && this.describe().elements.some((e) => e.ref === args['ref'] && e.role === 'textField')) this.state.keyboard = true;
        if (!this.state.keyboard) throw new ApexError('element_not_found', 'No text field has the focus.');
        this.state.noteText += String(args['text']);
        return { typed: String(args['text']).length };
      case 'tap': {
        const elements = this.describe().elements;
        const byRef = typeof args['ref'] === 'string' ? elements.find((e) => e.ref === args['ref']) : undefined;
        if (typeof args['ref'] === 'string' && !byRef) throw new ApexError('element_not_found', `No element ${args['ref']} on the screen now.`);
        const x = byRef ? byRef.center.x : Number(args['x']);
        const y = byRef ? byRef.center.y : Number(args['y']);
        const hit = byRef ?? elements.find((e) => Math.abs(e.center.x - x) < 20 && Math.abs(e.center.y - y) < 20);
        if (hit?.role === 'switch' && hit.label) this.state.switches[hit.label] = !this.state.switches[hit.label];
        if (hit?.role === 'icon') this.state.app = hit.label === 'Settings' ? 'settings' : 'notes';
        if (hit?.role === 'textField') this.state.keyboard = true;
        if (hit?.label === 'Done') this.state.keyboard = false;
        return { tapped: { x, y } };
      }
      default:
        throw new ApexError('unsupported_operation', `${operation} is not scripted.`);
    }
  }
}

/** TaskDevices over scripted phones, by id. */
export function scriptedDevices(phones: Record<string, ScriptedPhone>): TaskDevices {
  return {
    run: async (deviceId, operation, args) => {
      const phone = phones[deviceId];
      if (!phone) throw new ApexError('device_not_found', `No device with id "${deviceId}".`);
      return phone.run(operation, args);
    },
    isReadOnly: (operation) => READ_ONLY.has(operation),
    observes: (operation) => OBSERVING.has(operation),
  };
}
