import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { commandLine, KEY, shellQuote, typingCommands, untypableCharacters } from './shell-words';

/** What a POSIX sh makes of a command line: printf's arguments back, NUL-separated (mksh quotes the same way). */
function wordsAfterShell(line: string): string[] {
  const out = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  expect(out.status).toBe(0);
  return out.stdout.split('\0').slice(0, -1);
}

/**
 * Android's `input text` decoding (InputShellCommand.sendText, AOSP frameworks/base): after a '%', an 's'
 * becomes a space and the '%' is dropped; nothing else is decoded.
 */
function androidSendText(text: string): string {
  const buff = [...text];
  let escape = false;
  for (let i = 0; i < buff.length; i++) {
    if (escape) {
      escape = false;
      if (buff[i] === 's') {
        buff[i] = ' ';
        buff.splice(--i, 1);
      }
    }
    if (buff[i] === '%') escape = true;
  }
  return buff.join('');
}

/** What the device types for the commands: text runs decoded as Android does, Enter and Tab as characters. */
function typedBy(commands: string[][]): string {
  const keys: Record<string, string> = { [KEY.enter]: '\n', [KEY.tab]: '\t', [KEY.del]: '\b' };
  return commands.map(([, verb, ...args]) => (verb === 'text' ? androidSendText(args[0] as string) : args.map((code) => keys[code]).join(''))).join('');
}

const printable = fc.string({ unit: fc.constantFrom(...' abs%\'"\\$`;&|<>(){}*?!#~\n\t\b'.split('')), maxLength: 40 });

describe('command lines for the device shell', () => {
  it('keeps plain words as they are and single-quotes the rest', () => {
    expect(commandLine(['input', 'tap', '540', '1200'])).toBe('input tap 540 1200');
    expect(shellQuote('it\'s $HOME; rm -rf /')).toBe(`'it'\\''s $HOME; rm -rf /'`);
    expect(shellQuote('')).toBe(`''`);
  });

  it('gives a POSIX shell back exactly the words it was given, whatever they hold', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(printable, fc.string({ maxLength: 20 }).filter((s) => !s.includes('\0'))), { minLength: 1, maxLength: 6 }), (words) => {
        expect(wordsAfterShell(commandLine(words))).toEqual(words);
      }),
      { numRuns: 60 },
    );
  });
});

describe('typing with input text', () => {
  it('sends spaces as %s, newline and tab as keys, and splits a literal "%s"', () => {
    expect(typingCommands('hello world')).toEqual([['input', 'text', 'hello%sworld']]);
    expect(typingCommands('a\nb\tc')).toEqual([
      ['input', 'text', 'a'],
      ['input', 'keyevent', '66'],
      ['input', 'text', 'b'],
      ['input', 'keyevent', '61'],
      ['input', 'text', 'c'],
    ]);
    expect(typingCommands('100%sure')).toEqual([
      ['input', 'text', '100%'],
      ['input', 'text', 'sure'],
    ]);
    expect(typingCommands('')).toEqual([]);
    // Backspaces (the delete key; `clear` sends one per character) go as one key-event command.
    expect(typingCommands('\b\b\bnew')).toEqual([
      ['input', 'keyevent', '67', '67', '67'],
      ['input', 'text', 'new'],
    ]);
  });

  it('types exactly the text on Android, for any printable ASCII with shell metacharacters', () => {
    fc.assert(
      fc.property(printable, (text) => {
        expect(typedBy(typingCommands(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('survives the shell: every argument reaches input unchanged', () => {
    const commands = typingCommands(`it's "$x" & ; | \\ %s 100%`);
    for (const argv of commands) expect(wordsAfterShell(commandLine(argv))).toEqual(argv);
  });

  it('names what the key map cannot type', () => {
    expect(untypableCharacters('plain ASCII ~!')).toEqual([]);
    expect(untypableCharacters('héllo 🙂 é')).toEqual(['é', '🙂']);
  });
});
