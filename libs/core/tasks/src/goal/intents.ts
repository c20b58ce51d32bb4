/** What the offline planner can do: one intent per clause of a goal. */
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export type Intent =
  | { kind: 'open'; app: string }
  | { kind: 'home' }
  | { kind: 'back' }
  /** `direction` as the user said it; `finger` is where the finger moves (scroll down = finger up). */
  | { kind: 'scroll'; direction: ScrollDirection; finger: ScrollDirection }
  | { kind: 'toggle'; target: string; on: boolean }
  | { kind: 'type'; text: string; into?: string; submit: boolean }
  | { kind: 'tap'; target: string };

export function describeIntent(intent: Intent): string {
  switch (intent.kind) {
    case 'open':
      return `open ${intent.app}`;
    case 'home':
      return 'go home';
    case 'back':
      return 'go back';
    case 'scroll':
      return `scroll ${intent.direction}`;
    case 'toggle':
      return `turn ${intent.on ? 'on' : 'off'} ${intent.target}`;
    case 'type':
      return `type "${intent.text}"${intent.into ? ` in ${intent.into}` : ''}${intent.submit ? ' and submit' : ''}`;
    case 'tap':
      return `tap ${intent.target}`;
  }
}
