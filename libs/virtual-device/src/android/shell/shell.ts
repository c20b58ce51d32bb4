import type { DeviceFiles, ShellHandler, ShellSession } from '../adbd/device-backend';
import type { AndroidPhone } from '../android-phone';
import type { Command, CommandIO } from './command';
import { dumpsys } from './commands/dumpsys';
import { input } from './commands/input';
import { am, monkey, pm } from './commands/packages';
import { cat, echo, grep, head, id, ls, ps, rm, sleep, tail, whoami, writeFileTo } from './commands/posix';
import { appops } from './commands/environment';
import { cmd, content, getprop, logcat, settings, svc } from './commands/system';
import { screencap, uiautomator, wm } from './commands/ui';
import { parseCommandLine, ShellSyntaxError, withStatus, type Pipeline } from './parse';

/** Every command the virtual phone's shell knows, by name. */
export const COMMANDS: Readonly<Record<string, Command>> = Object.freeze({
  input,
  uiautomator,
  screencap,
  wm,
  dumpsys,
  am,
  monkey,
  pm,
  cmd,
  getprop,
  settings,
  svc,
  content,
  logcat,
  echo,
  cat,
  ls,
  grep,
  head,
  tail,
  ps,
  id,
  whoami,
  sleep,
  rm,
  appops,
  true: () => 0,
  false: () => 1,
});

/**
 * The phone's `/system/bin/sh` for the adbd: runs one command line (or, for an interactive shell, each line the
 * client sends) and resolves to the exit status. Unknown commands answer as mksh does (127).
 */
export function createAndroidShell(phone: AndroidPhone, files: DeviceFiles): ShellHandler {
  return async (session: ShellSession) => {
    if (session.command.trim() !== '') return runLine(session.command, phone, files, session, session.stdin);
    return interactive(phone, files, session);
  };
}

/** Android's mkshrc prompt: the last status first when it is not 0 ("127|shiba:/ $ "). */
function prompt(phone: AndroidPhone, status: number): string {
  return `${status === 0 ? '' : `${status}|`}${phone.profile.device}:/ $ `;
}

async function interactive(phone: AndroidPhone, files: DeviceFiles, session: ShellSession): Promise<number> {
  session.write(prompt(phone, 0));
  let pending = '';
  let status = 0;
  for await (const chunk of session.stdin) {
    pending += Buffer.from(chunk).toString('utf8');
    let nl: number;
    while ((nl = pending.search(/\r?\n/)) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + (pending[nl] === '\r' ? 2 : 1));
      if (/^\s*exit(\s|$)/.test(line)) return Number(line.trim().split(/\s+/)[1] ?? status) || 0;
      if (line.trim() !== '') status = await runLine(line, phone, files, session);
      session.write(prompt(phone, status));
    }
  }
  return status;
}

/** Runs a command line: pipelines joined by `;`, `&&`, `||`; the status of the last one run. */
export async function runLine(line: string, phone: AndroidPhone, files: DeviceFiles, session: Pick<ShellSession, 'write' | 'writeError' | 'signal'>, clientStdin?: AsyncIterable<Uint8Array>): Promise<number> {
  let pipelines: Pipeline[];
  try {
    pipelines = parseCommandLine(line);
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    session.writeError(`/system/bin/sh: ${e.message}\n`);
    return 1;
  }
  let status = 0;
  for (const p of pipelines) {
    if (p.after === '&&' && status !== 0) continue;
    if (p.after === '||' && status === 0) continue;
    status = await runPipeline(p, phone, files, session, status, clientStdin);
    clientStdin = undefined;
  }
  return status;
}

async function runPipeline(
  p: Pipeline,
  phone: AndroidPhone,
  files: DeviceFiles,
  session: Pick<ShellSession, 'write' | 'writeError' | 'signal'>,
  lastStatus: number,
  clientStdin?: AsyncIterable<Uint8Array>,
): Promise<number> {
  let stdin = Buffer.alloc(0);
  let status = 0;
  for (let i = 0; i < p.commands.length; i++) {
    const c = p.commands[i];
    const last = i === p.commands.length - 1;
    const captured: Buffer[] = [];
    const toFile = c.stdoutTo;
    const out = (data: string | Uint8Array) => {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
      if (last && !toFile) session.write(bytes);
      else captured.push(bytes);
    };
    const err = (data: string | Uint8Array) => {
      if (c.stderr === 'null') return;
      if (c.stderr === 'stdout') out(data);
      else session.writeError(data);
    };
    const io: CommandIO = { phone, files, stdin, out, err, signal: session.signal, ...(i === 0 && clientStdin ? { input: clientStdin } : {}) };
    status = await runCommand(withStatus(c.argv, lastStatus), io);
    if (toFile && !writeFileTo(io, toFile.path, Buffer.concat(captured), toFile.append)) {
      session.writeError(`/system/bin/sh: can't create ${toFile.path}: Permission denied\n`);
      status = 1;
    }
    stdin = Buffer.concat(captured);
  }
  return status;
}

async function runCommand(argv: string[], io: CommandIO): Promise<number> {
  const name = argv[0];
  // mksh builtins the adb client's own lines use (`export ANDROID_LOG_TAGS=""; exec logcat …`); no environment is kept.
  if (name === 'export') return 0;
  if (name === 'exec') return argv.length > 1 ? runCommand(argv.slice(1), io) : 0;
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`/system/bin/sh: ${name}: inaccessible or not found\n`);
    return 127;
  }
  try {
    return await command(argv, io);
  } catch (e) {
    // A bad value deep in a command (a coordinate that is not a number…) is the command's error, not the shell's.
    io.err(`Error: ${(e as Error).message}\n`);
    return 255;
  }
}
