import type { Rect } from '../../engine/element';
import { dragTarget, findView, gestureTarget, hitTest, isShown, type View } from '../../engine/view';
import { PhoneError } from '../model';

/** Drags shorter than this are taps. */
const TAP_SLOP = 10;
/** A press at least this long (seconds) is a long press (UILongPressGestureRecognizer's default minimum). */
export const LONG_PRESS_SEC = 0.5;

/** What touch and keys need from the phone: the screen's views, and a way to change state (bumping the version). */
export interface TouchScreen {
  root(): View;
  screenRect(): Rect;
  mutate(change: () => void): void;
  /** A swipe up from the bottom edge: the phone goes home when it can; false lets the drag reach the views. */
  swipeUpFromBottom(): boolean;
}

/** Fingers and keys on the view tree: which view a touch reaches and what it does there. */
export class TouchInput {
  constructor(private readonly screen: TouchScreen) {}

  tap(x: number, y: number): void {
    requireFinite({ x, y });
    const target = hitTest(this.screen.root(), x, y, this.screen.screenRect());
    const handler = target?.onTap;
    if (handler) this.screen.mutate(() => handler(x, y));
  }

  drag(fromX: number, fromY: number, toX: number, toY: number, holdSec: number): void {
    requireFinite({ fromX, fromY, toX, toY, holdSec });
    if (holdSec < 0) throw new PhoneError('invalid_argument', 'holdSec must not be negative');
    const dx = toX - fromX;
    const dy = toY - fromY;
    if (Math.hypot(dx, dy) < TAP_SLOP) {
      this.longPress(fromX, fromY, holdSec);
      return;
    }
    if (holdSec >= LONG_PRESS_SEC) {
      const pickUp = this.gesture(fromX, fromY, 'onHoldDrag')?.onHoldDrag;
      if (pickUp) {
        this.screen.mutate(() => pickUp(fromX, fromY, toX, toY));
        return;
      }
    }
    const fromBottomEdge = fromY >= this.screen.screenRect().height - 20 && dy < -100;
    if (fromBottomEdge && this.screen.swipeUpFromBottom()) return;
    const handler = dragTarget(this.screen.root(), fromX, fromY, this.screen.screenRect())?.onDrag;
    if (handler) this.screen.mutate(() => handler(dx, dy));
  }

  longPress(x: number, y: number, durationSec: number): void {
    requireFinite({ x, y, durationSec });
    if (durationSec < 0) throw new PhoneError('invalid_argument', 'durationSec must not be negative');
    if (durationSec < LONG_PRESS_SEC) {
      this.tap(x, y);
      return;
    }
    const hit = hitTest(this.screen.root(), x, y, this.screen.screenRect());
    const input = hit?.textInput;
    if (hit && input) {
      // A long press on a text input focuses it and opens its edit menu.
      const focus = hit.onFocus ?? hit.onTap;
      this.screen.mutate(() => {
        focus?.(x, y);
        input.menuOpen = true;
      });
      return;
    }
    const handler = this.gesture(x, y, 'onLongPress')?.onLongPress;
    if (handler) this.screen.mutate(() => handler(x, y));
    else this.tap(x, y);
  }

  doubleTap(x: number, y: number): void {
    requireFinite({ x, y });
    const handler = this.gesture(x, y, 'onDoubleTap')?.onDoubleTap;
    if (handler) {
      this.screen.mutate(() => handler(x, y));
      return;
    }
    this.tap(x, y);
    this.tap(x, y);
  }

  pinch(x: number, y: number, scale: number): void {
    requireFinite({ x, y, scale });
    if (scale <= 0) throw new PhoneError('invalid_argument', 'scale must be greater than 0');
    const handler = this.gesture(x, y, 'onPinch')?.onPinch;
    if (handler) this.screen.mutate(() => handler(scale, x, y));
  }

  keyboardShown(): boolean {
    return this.shownOfType('Keyboard').length > 0;
  }

  /** Presses the first of these keys (or buttons) the screen shows until the keyboard hides. */
  dismissKeyboard(keyNames: readonly string[]): void {
    for (const name of keyNames) {
      if (!this.keyboardShown()) return;
      const wanted = String(name).toLowerCase();
      const key = [...this.shownOfType('Key'), ...this.shownOfType('Button')].find((v) => v.label?.toLowerCase() === wanted && v.onTap);
      if (key?.onTap) {
        const handler = key.onTap;
        this.screen.mutate(() => handler(key.rect.x + key.rect.width / 2, key.rect.y + key.rect.height / 2));
      }
    }
    if (this.keyboardShown()) {
      throw new PhoneError('keyboard_stays', `the keyboard has no key that hides it among: ${keyNames.join(', ') || '(none given)'}`);
    }
  }

  focusElement(uid: string): void {
    const view = this.shownView(uid);
    const handler = view.onFocus ?? view.onTap;
    if (!handler) return;
    const cx = view.rect.x + view.rect.width / 2;
    const cy = view.rect.y + view.rect.height / 2;
    this.screen.mutate(() => handler(cx, cy));
  }

  clearElement(uid: string): void {
    const handler = this.shownView(uid).onClear;
    if (!handler) throw new PhoneError('invalid_argument', `element ${uid} is not a text input`);
    this.screen.mutate(handler);
  }

  private gesture(x: number, y: number, kind: 'onHoldDrag' | 'onLongPress' | 'onDoubleTap' | 'onPinch'): View | null {
    return gestureTarget(this.screen.root(), x, y, this.screen.screenRect(), kind);
  }

  private shownView(uid: string): View {
    const root = this.screen.root();
    const view = findView(root, uid);
    if (!view || !isShown(root, uid, this.screen.screenRect())) throw new PhoneError('element_gone', `element ${uid} is not on screen`);
    return view;
  }

  /** Views of this type at least partly on screen, in tree order. */
  private shownOfType(type: View['type']): View[] {
    const root = this.screen.root();
    const found: View[] = [];
    const walk = (v: View): void => {
      if (v.type === type && isShown(root, v.uid, this.screen.screenRect())) found.push(v);
      for (const c of v.children ?? []) walk(c);
    };
    walk(root);
    return found;
  }
}

export function requireFinite(values: Record<string, number>): void {
  for (const [name, v] of Object.entries(values)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new PhoneError('invalid_argument', `${name} must be a finite number`);
  }
}
