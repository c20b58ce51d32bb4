/*
 * Building command lines for the device's /system/bin/sh (mksh), and the text `input text` can take. The one
 * place where quoting is decided.
 */

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument as sh reads it back unchanged: plain words as they are, anything else in single quotes. */
export function shellQuote(arg: string): string {
  if (PLAIN_WORD.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line whose words reach the program exactly as given. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/** Characters sent as key events rather than `input text`: newline (Enter), tab, backspace (the delete key). */
const KEY_CHARACTERS: Record<string, number> = { '\n': 66, '\t': 61, '\b': 67 };

/** What cannot be typed: anything but printable ASCII (the virtual keyboard's key map) and the key characters. */
export function untypableCharacters(text: string): string[] {
  return [...new Set([...text].filter((c) => !(c >= ' ' && c <= '~') && KEY_CHARACTERS[c] === undefined))];
}

/** Android KeyEvent codes the driver sends. */
export const KEY = {
  home: 3,
  back: 4,
  volumeUp: 24,
  volumeDown: 25,
  power: 26,
  tab: 61,
  enter: 66,
  del: 67,
  sleep: 223,
  wakeup: 224,
  /** The app switcher (KEYCODE_APP_SWITCH). */
  appSwitch: 187,
} as const;

/**
 * The shell commands that type `text` (printable ASCII, newline, tab, backspace) on Android: `input text ARG` per
 * run of characters, `input keyevent` for newline (Enter), tab and backspace (delete; a run of them in one
 * command). `input text` reads `%s` as a space (InputShellCommand
 * `sendText`), so spaces go as `%s`, and a literal `%` followed by `s` is split across two commands so that it is
 * not read as a space. Each argument is single-quoted for the shell.
 */
export function typingCommands(text: string): string[][] {
  const commands: string[][] = [];
  let run = '';
  const flush = (): void => {
    if (run) commands.push(['input', 'text', run]);
    run = '';
  };
  for (const c of text) {
    const key = KEY_CHARACTERS[c];
    if (key !== undefined) {
      flush();
      const last = commands[commands.length - 1];
      // Consecutive deletes go as one `input keyevent 67 67 …`.
      if (key === KEY.del && last?.[1] === 'keyevent' && last[2] === String(KEY.del)) last.push(String(key));
      else commands.push(['input', 'keyevent', String(key)]);
    } else if (c === ' ') {
      run += '%s';
    } else {
      if (c === 's' && run.endsWith('%')) flush();
      run += c;
    }
  }
  flush();
  return commands;
}
