import type { Permission, PermissionState } from '@apex/port';

/** What the offline planner can do: one intent per clause of a goal. */
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export type Intent =
  | { kind: 'open'; app: string }
  | { kind: 'home' }
  /** `to`: keep going back until that screen (or app) shows. */
  | { kind: 'back'; to?: string }
  /** `direction` as the user said it; `finger` is where the finger moves (scroll down = finger up). */
  | { kind: 'scroll'; direction: ScrollDirection; finger: ScrollDirection }
  /** Scroll (starting `direction`, then the other way) until `target` is on screen. */
  | { kind: 'find'; target: string; direction: 'up' | 'down' }
  | { kind: 'toggle'; target: string; on: boolean }
  | { kind: 'type'; text: string; into?: string; submit: boolean }
  | { kind: 'tap'; target: string }
  /** "go to example.com": a web address opened in the browser. */
  | { kind: 'visit'; url: string }
  /** Answer the alert on screen as `words` say ("allow once", "deny", "don't allow"). */
  | { kind: 'answer'; words: string }
  /** One catalog operation that needs no target ("lock the phone", "landscape", "dark mode", "copy X"). */
  | { kind: 'device'; operation: DeviceOperation; arguments: Record<string, unknown>; says: string }
  /** "quit Maps": the app ended (terminate), the home screen when it was in front. */
  | { kind: 'close'; app: string }
  /** "long press X", "double tap X". */
  | { kind: 'gesture'; gesture: 'long_press' | 'double_tap'; target: string }
  /** "wait until X appears" (or disappears). */
  | { kind: 'wait'; target: string; gone: boolean }
  /** "mark Buy milk as done": the control on the item's row set to done (or not). */
  | { kind: 'mark'; item: string; done: boolean; app?: string }
  /** "select the Timers tab": a tab shown (tapped unless already selected). */
  | { kind: 'tab'; tab: string }
  /**
   * "show me X", "take me to X", "bring up X": decided by what X is on the phone — an app or a part of one (opened),
   * a tab, row or button (navigated to), or a label with a value (read, as a question). `page`: the user named a
   * place ("the About phone page"), so never a value.
   */
  | { kind: 'show'; target: string; app?: string; page?: boolean }
  /** "text Ada 'see you'": the conversation opened (`to`; the open one when absent), typed, sent, checked. */
  | { kind: 'send'; to?: string; text: string }
  /** "search Maps for coffee": the app's search field filled and submitted. */
  | { kind: 'search'; query: string; app?: string }
  /** "but leave Bluetooth on", "without changing anything else": nothing touched; the result says so. */
  | { kind: 'keep'; target?: string; on?: boolean }
  /** A question, answered in the result: from the device's status, a switch, a count, or a label's value. */
  | { kind: 'ask'; subject: string; read: AskRead; target?: string; app?: string }
  /** "install /path/WhereAmI.app": a build on the Apex host (inside its allowed folders: the operation checks). */
  | { kind: 'install'; path: string }
  /** The developer's loop on one app the user names ("it": the app installed or opened before). */
  | { kind: 'app'; operation: 'reset_app' | 'uninstall_app' | 'set_permission'; app: string; permission?: Permission; state?: PermissionState }
  /** "is Maps running?": answered from the app's state. */
  | { kind: 'app_state'; app: string; asks: 'installed' | 'running' | 'foreground' | 'background' };

export type DeviceOperation = 'set_lock' | 'set_orientation' | 'set_appearance' | 'set_clipboard' | 'hide_keyboard' | 'set_location' | 'background_app';
/** Where a question's answer is read: a device_status field, a switch, a count on screen, a label's value. */
export type AskRead = 'os_version' | 'model' | 'device_name' | 'battery' | 'orientation' | 'locked' | 'foreground_app' | 'switch' | 'count' | 'value';

export function describeIntent(intent: Intent): string {
  switch (intent.kind) {
    case 'open':
      return `open ${intent.app}`;
    case 'home':
      return 'go home';
    case 'back':
      return intent.to ? `go back to ${intent.to}` : 'go back';
    case 'scroll':
      return `scroll ${intent.direction}`;
    case 'find':
      return `scroll until "${intent.target}" shows`;
    case 'toggle':
      return `turn ${intent.on ? 'on' : 'off'} ${intent.target}`;
    case 'type':
      return `type "${intent.text}"${intent.into ? ` in ${intent.into}` : ''}${intent.submit ? ' and submit' : ''}`;
    case 'tap':
      return `tap ${intent.target}`;
    case 'visit':
      return `go to ${intent.url}`;
    case 'answer':
      return `answer the alert: ${intent.words}`;
    case 'device':
      return intent.says;
    case 'close':
      return `close ${intent.app}`;
    case 'gesture':
      return `${intent.gesture === 'long_press' ? 'long press' : 'double tap'} ${intent.target}`;
    case 'wait':
      return `wait until "${intent.target}" ${intent.gone ? 'disappears' : 'appears'}`;
    case 'mark':
      return `mark ${intent.item} as ${intent.done ? 'done' : 'not done'}`;
    case 'tab':
      return `show the ${intent.tab} tab`;
    case 'show':
      return `show ${intent.target}${intent.app ? ` in ${intent.app}` : ''}`;
    case 'send':
      return `send a message${intent.to ? ` to ${intent.to}` : ''}`;
    case 'search':
      return `search${intent.app ? ` ${intent.app}` : ''} for "${intent.query}"`;
    case 'keep':
      return intent.target ? `leave ${intent.target} as it is` : 'change nothing else';
    case 'ask':
      return `find out ${intent.subject}`;
    case 'install':
      return 'install the build';
    case 'app':
      return intent.operation === 'reset_app'
        ? `reset ${intent.app}`
        : intent.operation === 'uninstall_app'
          ? `uninstall ${intent.app}`
          : `set ${intent.app}'s ${intent.permission} permission to ${intent.state}`;
    case 'app_state':
      return `find out whether ${intent.app} is ${intent.asks === 'running' || intent.asks === 'installed' ? intent.asks : `in the ${intent.asks}`}`;
  }
}

/** The name an intent refers to, for "open it" / "tap it" in the clause after it. */
export function namedTarget(intent: Intent | undefined): string | undefined {
  if (!intent) return undefined;
  switch (intent.kind) {
    case 'open':
      return intent.app;
    case 'find':
    case 'toggle':
    case 'tap':
    case 'gesture':
      return intent.target;
    case 'close':
      return intent.app;
    case 'mark':
      return intent.item;
    case 'show':
      return intent.target;
    case 'back':
      return intent.to;
    // The app a build installed is named only once it is installed: "it" stays, the planner knows it by then.
    case 'install':
      return 'it';
    case 'app':
    case 'app_state':
      return intent.app;
    default:
      return undefined;
  }
}
