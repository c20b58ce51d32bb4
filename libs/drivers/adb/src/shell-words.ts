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

/** What `input text` (the virtual keyboard's key map) can type: printable ASCII, plus newline and tab as keys. */
export function untypableCharacters(text: string): string[] {
  return [...new Set([...text].filter((c) => !(c >= ' ' && c <= '~') && c !== '\n' && c !== '\t'))];
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
  sleep: 223,
  wakeup: 224,
} as const;

/**
 * The shell commands that type `text` (printable ASCII, newline, tab) on Android: `input text ARG` per run of
 * characters, `input keyevent` for newline (Enter) and tab. `input text` reads `%s` as a space (InputShellCommand
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
    if (c === '\n' || c === '\t') {
      flush();
      commands.push(['input', 'keyevent', String(c === '\n' ? KEY.enter : KEY.tab)]);
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
