/** The text and editing state of one text field or text view. */
export class TextInput {
  text = '';
  focused = false;
  /** Keyboard state while this input is focused. */
  shift = false;
  numbers = false;
  /** The whole text is selected (as Safari's address bar does on focus): typing replaces it. */
  allSelected = false;
  /** The edit menu (Cut, Copy, Paste, Select All) is open over this input. */
  menuOpen = false;

  constructor(
    /** Multi-line inputs insert "\n" on return; single-line ones call onReturn. */
    readonly multiline: boolean,
    private readonly onReturn: () => void = () => undefined,
  ) {}

  focus(): void {
    this.focused = true;
  }

  /** Focuses with the whole text selected. */
  focusSelectingAll(): void {
    this.focused = true;
    this.allSelected = this.text !== '';
  }

  blur(): void {
    this.focused = false;
    this.menuOpen = false;
    this.allSelected = false;
    this.shift = false;
    this.numbers = false;
  }

  /** Types text as a keyboard would: "\n" is the return key, "\b" deletes backwards. */
  type(text: string): void {
    this.menuOpen = false;
    for (const ch of text) {
      if (this.allSelected && ch !== '\n' && ch !== '\r') this.text = '';
      this.allSelected = false;
      if (ch === '\n' || ch === '\r') this.pressReturn();
      else if (ch === '\b' || ch === '\u007f') this.text = this.text.slice(0, -1);
      else this.text += ch;
    }
  }

  pressReturn(): void {
    if (this.multiline) this.text += '\n';
    else this.onReturn();
  }

  /** Pastes as iOS does: replaces a selection; a single-line input gets the text on one line. */
  paste(text: string): void {
    const flat = this.multiline ? text : text.replace(/\r?\n/g, ' ');
    if (this.allSelected) this.text = '';
    this.allSelected = false;
    this.text += flat;
  }

  clear(): void {
    this.text = '';
    this.allSelected = false;
  }
}
