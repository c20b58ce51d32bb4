/**
 * A command line split as `/system/bin/sh` (mksh) splits it, for what adb clients send: words with single and
 * double quotes and backslash escapes, `;` / `&&` / `||` between commands, `|` pipes, and the redirections
 * `> file`, `>> file`, `2>/dev/null`, `2>&1`, and `$?` (the last status: drivers run several commands in one
 * shell and read each one's status). No other variables, no globs or subshells.
 */

/** Where `$?` stood in a word: replaced by the last command's status when the command runs (`withStatus`). */
const LAST_STATUS = '\uE000';

/** A command's words with `$?` replaced by the status of the command before it. */
export function withStatus(argv: readonly string[], status: number): string[] {
  return argv.map((a) => a.split(LAST_STATUS).join(String(status)));
}

export interface SimpleCommand {
  argv: string[];
  /** `> file` / `>> file` for stdout. */
  stdoutTo?: { path: string; append: boolean };
  /** `2>/dev/null` drops stderr; `2>&1` merges it into stdout. */
  stderr?: 'null' | 'stdout';
}

export interface Pipeline {
  commands: SimpleCommand[];
  /** How this pipeline follows the previous one. */
  after: ';' | '&&' | '||';
}

export class ShellSyntaxError extends Error {}

type Token = { word: string } | { op: string };

function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  const flush = () => {
    if (inWord) tokens.push({ word });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError("unterminated '");
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) word += line[++i];
        else if (line[i] === '$' && line[i + 1] === '?') {
          word += LAST_STATUS;
          i++;
        } else word += line[i];
      }
      if (i >= line.length) throw new ShellSyntaxError('unterminated "');
    } else if (c === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (c === '$' && line[i + 1] === '?') {
      word += LAST_STATUS;
      inWord = true;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      flush();
    } else if (c === ';' || c === '|' || c === '&' || c === '>' || c === '<') {
      // "2>" is a redirection of fd 2 when the 2 stands alone.
      if (c === '>' && word === '2' && inWord && (i === 0 || line[i - 1] === '2')) {
        word = '';
        inWord = false;
        if (line[i + 1] === '&') {
          tokens.push({ op: '2>&' });
          i++;
        } else tokens.push({ op: '2>' });
        continue;
      }
      flush();
      const two = line.slice(i, i + 2);
      if (two === '&&' || two === '||' || two === '>>') {
        tokens.push({ op: two });
        i++;
      } else tokens.push({ op: c });
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

export function parseCommandLine(line: string): Pipeline[] {
  const tokens = tokenize(line);
  const pipelines: Pipeline[] = [];
  let current: Pipeline = { commands: [], after: ';' };
  let cmd: SimpleCommand = { argv: [] };
  const endCommand = () => {
    if (cmd.argv.length === 0) throw new ShellSyntaxError('syntax error: unexpected operator');
    current.commands.push(cmd);
    cmd = { argv: [] };
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if ('word' in t) {
      cmd.argv.push(t.word);
      continue;
    }
    const next = tokens[i + 1];
    const target = next && 'word' in next ? next.word : undefined;
    switch (t.op) {
      case '>':
      case '>>':
        if (target === undefined) throw new ShellSyntaxError('syntax error: redirection without a file');
        cmd.stdoutTo = { path: target, append: t.op === '>>' };
        i++;
        break;
      case '2>':
        if (target === undefined) throw new ShellSyntaxError('syntax error: redirection without a file');
        cmd.stderr = 'null';
        i++;
        break;
      case '2>&':
        if (target !== '1') throw new ShellSyntaxError('syntax error: bad fd');
        cmd.stderr = 'stdout';
        i++;
        break;
      case '<':
        i++;
        break;
      case '|':
        endCommand();
        break;
      case ';':
      case '&&':
      case '||':
      case '&':
        if (cmd.argv.length === 0 && current.commands.length === 0 && t.op === ';') break;
        endCommand();
        pipelines.push(current);
        current = { commands: [], after: t.op === '&' ? ';' : (t.op as Pipeline['after']) };
        break;
    }
  }
  if (cmd.argv.length > 0) current.commands.push(cmd);
  else if (current.commands.length > 0) throw new ShellSyntaxError('syntax error: unexpected end of line');
  if (current.commands.length > 0) pipelines.push(current);
  return pipelines;
}
