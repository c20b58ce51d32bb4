import type { TaskStep } from '../model/task';
import { TypedTextRedactor } from './typed-text-redactor';

function step(operation: string, args: Record<string, unknown>, detail = 'Done.', observation = 'Notes'): TaskStep {
  return { index: 0, observation, action: { operation, arguments: args }, outcome: { status: 'ok', detail }, durationMs: 1 };
}

describe('TypedTextRedactor', () => {
  it('replaces typed text by its length and leaves the running step as it was', () => {
    const redactor = new TypedTextRedactor();
    const original = step('input_text', { text: 'hunter2', submit: true }, 'Screen now: Notes | Password=hunter2');
    const stored = redactor.step(original);
    expect(stored.action.arguments).toEqual({ text: '•••', length: 7, submit: true });
    expect(stored.outcome.detail).toBe('Screen now: Notes | Password=•••');
    expect(original.action.arguments).toEqual({ text: 'hunter2', submit: true });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(new TypedTextRedactor().step(step('input_text', { text: 'pässwörd😀' })).action.arguments).toEqual({ text: '•••', length: 9 });
  });

  it('blanks the text where later steps, results and errors repeat it', () => {
    const redactor = new TypedTextRedactor();
    redactor.step(step('input_text', { text: 'correct horse' }));
    const later = redactor.step(step('tap', { x: 1, y: 2 }, '"correct horse" is not on the screen', 'Notes | correct horse battery'));
    expect(later.observation).toBe('Notes | ••• battery');
    expect(later.outcome.detail).toBe('"•••" is not on the screen');
    expect(later.action.arguments).toEqual({ x: 1, y: 2 });
    expect(redactor.text('Typed "correct horse" in Notes')).toBe('Typed "•••" in Notes');
  });

  it('leaves other operations alone, and very short text where a screen repeats it', () => {
    const redactor = new TypedTextRedactor();
    expect(redactor.step(step('find_text', { text: 'General' })).action.arguments).toEqual({ text: 'General' });
    const typed = redactor.step(step('input_text', { text: 'ab' }, 'Screen now: about tab'));
    expect(typed.action.arguments).toEqual({ text: '•••', length: 2 });
    expect(typed.outcome.detail).toBe('Screen now: about tab');
  });
});
