/** Texts remembered per device for redaction; older ones drop out. */
export const MAX_REMEMBERED_TEXTS = 32;
/** Shorter texts are not redacted in what a device reports: a typed "a" would blank every "a" of a log. */
export const MIN_REDACTED_TEXT_LENGTH = 3;

/**
 * What Apex did on one device that its evidence needs: when it last acted (for "the log since the last
 * action") and the texts it typed there (to redact them from the device's log). Memory only; it goes with the
 * device's registration.
 */
export class ActionMemory {
  private lastAction?: number;
  private readonly texts: string[] = [];

  noteAction(at: number): void {
    this.lastAction = at;
  }

  lastActionAt(): number | undefined {
    return this.lastAction;
  }

  rememberText(typed: string): void {
    // Delete keys (input_text's `clear`) are keystrokes, not part of the secret.
    const text = typed.split('\b').join('');
    if (text.length < MIN_REDACTED_TEXT_LENGTH) return;
    const known = this.texts.indexOf(text);
    if (known >= 0) this.texts.splice(known, 1);
    this.texts.push(text);
    if (this.texts.length > MAX_REMEMBERED_TEXTS) this.texts.shift();
  }

  /** Longest first, so a text that contains another is redacted whole. */
  typedTexts(): readonly string[] {
    return [...this.texts].sort((a, b) => b.length - a.length);
  }
}
