import type { SystemAlert } from '../apps/app';
import { PhoneError, type AlertInfo } from '../model';

/**
 * The one system alert waiting for an answer, and which app (or SpringBoard) it belongs to: it shows only while
 * its owner is in front and the phone is unlocked.
 */
export class AlertSlot {
  private pending: { owner: string; alert: SystemAlert } | null = null;

  show(owner: string, alert: SystemAlert): void {
    this.pending = { owner, alert };
  }

  /** The alert that shows on the screen of `owner` (the app in front), if any. */
  shownFor(owner: string, locked: boolean): SystemAlert | null {
    const p = this.pending;
    return p && !locked && p.owner === owner ? p.alert : null;
  }

  info(alert: SystemAlert | null): AlertInfo | null {
    return alert ? { text: `${alert.title}\n${alert.message}`, buttons: [...alert.buttons] } : null;
  }

  /** The button that accept (or dismiss) presses: the named one, or the alert's default; throws for an unknown name. */
  buttonFor(alert: SystemAlert | null, buttonLabel: string | undefined, kind: 'accept' | 'dismiss'): string {
    if (!alert) throw new PhoneError('no_alert', 'no alert is open');
    const button = buttonLabel ?? (kind === 'accept' ? alert.acceptButton : alert.dismissButton);
    if (!alert.buttons.includes(button)) {
      throw new PhoneError('invalid_argument', `the alert has no button "${button}"; its buttons: ${alert.buttons.join(', ')}`);
    }
    return button;
  }

  /** Closes the alert and runs what the button does. */
  choose(button: string): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    p.alert.onChoice(button);
  }

  /** A terminated app's alert goes with it. */
  dropFor(owner: string): void {
    if (this.pending?.owner === owner) this.pending = null;
  }
}
