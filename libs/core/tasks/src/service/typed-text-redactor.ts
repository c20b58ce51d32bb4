import type { TaskStep } from '../model/task';

/** What a recorded step shows instead of text that was typed (with its length beside it). */
export const REDACTED_TEXT = '•••';

/** Operations whose argument is text typed on the device, which may be a password: operation → argument. */
const TYPED_TEXT_ARGUMENTS: Readonly<Record<string, string>> = { input_text: 'text' };

/** Shorter typed text is left where a screen account repeats it: blanking every "ab" would garble the log. */
const MIN_BLANKED_CHARS = 4;

/** What one task's records pass through before they are stored. */
export interface TypedTextFilter {
  /** The step as it may be stored and shown (a copy; the running task keeps the original). */
  step(step: TaskStep): TaskStep;
  /** Free text (a result, an error message) as it may be stored and shown. */
  text(text: string): string;
}

/** For a configuration that opts in (`tasks.keepTypedText`): everything as typed. */
export const AS_TYPED: TypedTextFilter = { step: (step) => step, text: (text) => text };

/**
 * Keeps the text a task typed out of what is recorded about it. A typing step's argument becomes
 * `{"text":"•••","length":7}`; where a later account of the screen, an outcome, the result or an error message
 * repeats the text (a plain text field shows what was typed), it is blanked too. One per running task.
 */
export class TypedTextRedactor implements TypedTextFilter {
  private readonly typed = new Set<string>();

  step(step: TaskStep): TaskStep {
    const argument = TYPED_TEXT_ARGUMENTS[step.action.operation];
    const value = argument === undefined ? undefined : step.action.arguments[argument];
    const args = { ...step.action.arguments };
    if (argument !== undefined && typeof value === 'string') {
      if ([...value].length >= MIN_BLANKED_CHARS) this.typed.add(value);
      args[argument] = REDACTED_TEXT;
      args['length'] = [...value].length;
    }
    return {
      ...step,
      observation: this.text(step.observation),
      action: { operation: step.action.operation, arguments: args },
      outcome: this.outcome(step.outcome),
    };
  }

  /** A wait for text that held typed text is dropped, not blanked: a replay could never see the blank. */
  private outcome({ waitedFor, ...outcome }: TaskStep['outcome']): TaskStep['outcome'] {
    const kept = { ...outcome, detail: this.text(outcome.detail) };
    return waitedFor !== undefined && this.text(waitedFor) === waitedFor ? { ...kept, waitedFor } : kept;
  }

  /** Every text typed so far blanked. */
  text(text: string): string {
    let result = text;
    for (const typed of this.typed) result = result.split(typed).join(REDACTED_TEXT);
    return result;
  }
}
