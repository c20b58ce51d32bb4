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
  | { kind: 'answer'; words: string };

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
      return intent.target;
    case 'back':
      return intent.to;
    default:
      return undefined;
  }
}
