import type { AppDefinition, AppInstance, Env } from './app';
import { keyboardHeight, keyboardWindow } from '../../engine/ui/keyboard';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import { drawEditableText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import type { View } from '../../engine/view';

export const NOTES_BUNDLE_ID = 'com.apple.mobilenotes';
export const NOTE_PLACEHOLDER = 'Start typing your note';
export const NOTE_IDENTIFIER = 'note-body';

/** One note: a text view that focuses on tap, the keyboard while editing, and Done to stop. */
class NotesApp implements AppInstance {
  private readonly note = new TextInput(true);

  focusedInput(): TextInput | null {
    return this.note.focused ? this.note : null;
  }

  reset(): void {
    // The note is saved; only the editing session ends.
    this.note.blur();
  }

  windows(env: Env): View[] {
    const note = this.note;
    const top = env.top + NAV_BAR_HEIGHT + 12;
    const bottom = note.focused ? env.height - keyboardHeight(env) : env.height - env.bottom;
    const rect = { x: 16, y: top, width: env.width - 32, height: Math.max(22, bottom - top - 8) };
    const textView: View = {
      uid: 'notes/note',
      type: 'TextView',
      identifier: NOTE_IDENTIFIER,
      label: '',
      value: note.text,
      placeholder: NOTE_PLACEHOLDER,
      focused: note.focused,
      rect,
      onTap: () => note.focus(),
      onClear: () => note.clear(),
      textInput: note,
      draw: (p) => {
        p.ctx.save();
        p.ctx.beginPath();
        p.ctx.rect(rect.x - 2, rect.y, rect.width + 4, rect.height);
        p.ctx.clip();
        drawEditableText(p, rect, note.text, NOTE_PLACEHOLDER, note.focused);
        p.ctx.restore();
      },
    };
    const bar = navBar(env, {
      uid: 'notes/navbar',
      title: 'Notes',
      right: note.focused ? { label: 'Done', bold: true, onTap: () => note.blur() } : undefined,
    });
    const windows: View[] = [
      {
        uid: 'notes/window',
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx, theme }) => {
          ctx.fillStyle = theme.background;
          ctx.fillRect(0, 0, env.width, env.height);
        },
        children: [bar, textView],
      },
    ];
    if (note.focused) windows.push(keyboardWindow(env, note));
    return windows;
  }
}

export const notesApp: AppDefinition = {
  bundleId: NOTES_BUNDLE_ID,
  name: 'Notes',
  icon: { background: '#ffcc00', foreground: '#ffffff', letter: 'N' },
  create: () => new NotesApp(),
};
