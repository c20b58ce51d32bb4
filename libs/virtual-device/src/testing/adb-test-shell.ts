import type { AdbDeviceBackend, ShellHandler, ShellSession } from '../android/adbd/device-backend';
import { MemoryFiles } from '../android/adbd/memory-files';

/**
 * A tiny shell for the adbd's own specs (the real phone answers with its own): `echo`, `exit N`, `cat`
 * (stdin → stdout), `sleep SECONDS` (ends early when the stream goes), and Android's answer to anything else.
 * Extra commands come from the spec.
 */
export type TestCommand = (session: ShellSession, args: string[]) => Promise<number> | number;

export function testShell(extra: Record<string, TestCommand> = {}): ShellHandler {
  const commands: Record<string, TestCommand> = {
    echo: (s, args) => {
      s.write(`${args.join(' ')}\n`);
      return 0;
    },
    exit: (_s, args) => Number(args[0] ?? 0),
    cat: async (s) => {
      for await (const chunk of s.stdin) s.write(chunk);
      return 0;
    },
    sleep: (s, args) =>
      new Promise<number>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          resolve(0);
        };
        const timer = setTimeout(done, Number(args[0] ?? 0) * 1000);
        s.signal.addEventListener('abort', done, { once: true });
      }),
    ...extra,
  };
  return async (session) => {
    const [name, ...args] = shellWords(session.command);
    if (name === undefined) {
      // An interactive shell: this one only waits for its input to end.
      for await (const _ of session.stdin) void _;
      return 0;
    }
    const command = commands[name];
    if (!command) {
      session.writeError(`/system/bin/sh: ${name}: inaccessible or not found\n`);
      return 127;
    }
    return command(session, args);
  };
}

/** A backend with the test shell and empty in-memory files. */
export function testBackend(options: { extra?: Record<string, TestCommand>; connectTcp?: AdbDeviceBackend['connectTcp'] } = {}): AdbDeviceBackend & {
  files: MemoryFiles;
} {
  return {
    identity: { product: 'apex_test', model: 'Apex Test Phone', device: 'apextest' },
    shell: testShell(options.extra),
    files: new MemoryFiles(),
    ...(options.connectTcp ? { connectTcp: options.connectTcp } : {}),
  };
}

/** Splits a command line as sh does for plain words, '…' and "…" quotes and backslash escapes (adb quotes args). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word = (word ?? '') + line[++i];
      else word = (word ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word = word ?? '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
