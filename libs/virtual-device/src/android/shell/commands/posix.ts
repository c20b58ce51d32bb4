import { intArg, type Command, type CommandIO } from '../command';

/** Writes a device file; false when the files refuse it. */
export function writeFileTo(io: CommandIO, path: string, data: Uint8Array, append = false): boolean {
  try {
    const before = append ? io.files.read(path) : undefined;
    const bytes = before ? Buffer.concat([before, data]) : data;
    io.files.write(path, bytes, 0o100660, Math.floor(Date.now() / 1000));
    return true;
  } catch {
    return false;
  }
}

export const echo: Command = (argv, io) => {
  const noNewline = argv[1] === '-n';
  const words = argv.slice(noNewline ? 2 : 1);
  io.out(words.join(' ') + (noNewline ? '' : '\n'));
  return 0;
};

export const cat: Command = (argv, io) => {
  const paths = argv.slice(1).filter((a) => a !== '-');
  if (paths.length === 0) {
    io.out(io.stdin);
    return 0;
  }
  let status = 0;
  for (const path of paths) {
    const data = io.files.read(path);
    if (data) io.out(data);
    else {
      io.err(`cat: ${path}: ${io.files.list(path) ? 'Is a directory' : 'No such file or directory'}\n`);
      status = 1;
    }
  }
  return status;
};

export const ls: Command = (argv, io) => {
  const long = argv.some((a) => /^-[a-zA-Z]*l/.test(a));
  const paths = argv.slice(1).filter((a) => !a.startsWith('-'));
  let status = 0;
  for (const path of paths.length ? paths : ['/']) {
    const entries = io.files.list(path);
    const stat = io.files.stat(path);
    if (!stat) {
      io.err(`ls: ${path}: No such file or directory\n`);
      status = 1;
      continue;
    }
    const shown = entries ? entries.filter((e) => e.name !== '.' && e.name !== '..').sort((a, b) => a.name.localeCompare(b.name)) : [{ ...stat, name: path }];
    for (const e of shown) {
      if (!long) io.out(`${e.name}\n`);
      else {
        const dir = (e.mode & 0o170000) === 0o040000;
        const stamp = new Date(e.mtime * 1000).toISOString().slice(0, 16).replace('T', ' ');
        io.out(`${dir ? 'd' : '-'}rw-rw---- 1 shell shell ${String(e.size).padStart(8)} ${stamp} ${e.name}\n`);
      }
    }
  }
  return status;
};

/** `grep [-i] [-v] [-E] [-c] [-e] PATTERN [FILE]`: lines of stdin (or the file) that match. */
export const grep: Command = (argv, io) => {
  let ignoreCase = false;
  let invert = false;
  let count = false;
  let pattern: string | undefined;
  const rest: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-e') pattern = args[++i];
    else if (/^-[ivEFcw]+$/.test(a)) {
      if (a.includes('i')) ignoreCase = true;
      if (a.includes('v')) invert = true;
      if (a.includes('c')) count = true;
    } else if (pattern === undefined) pattern = a;
    else rest.push(a);
  }
  if (pattern === undefined) {
    io.err('usage: grep [-EFHIabchilnoqrsvwxz] [-ABCm NUM] [-f REGEX_FILE] [-e REGEX]... [REGEX] [FILE]...\n');
    return 2;
  }
  let re: RegExp;
  try {
    re = new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch {
    io.err(`grep: bad regex '${pattern}'\n`);
    return 2;
  }
  const text = rest.length ? Buffer.from(io.files.read(rest[0]) ?? new Uint8Array()).toString('utf8') : io.stdin.toString('utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const hits = lines.filter((l) => re.test(l) !== invert);
  if (count) io.out(`${hits.length}\n`);
  else for (const l of hits) io.out(`${l}\n`);
  return hits.length > 0 ? 0 : 1;
};

function lineCount(argv: string[]): number {
  const i = argv.indexOf('-n');
  if (i >= 0) return intArg(argv[i + 1]);
  const short = argv.find((a) => /^-\d+$/.test(a));
  return short ? Number(short.slice(1)) : 10;
}

export const head: Command = (argv, io) => {
  const lines = io.stdin.toString('utf8').split('\n');
  const n = lineCount(argv);
  io.out(lines.slice(0, n).join('\n') + (lines.length > n ? '\n' : ''));
  return 0;
};

export const tail: Command = (argv, io) => {
  const text = io.stdin.toString('utf8');
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const n = lineCount(argv);
  io.out(lines.slice(-n).join('\n') + '\n');
  return 0;
};

export const id: Command = (_argv, io) => {
  io.out('uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats) context=u:r:shell:s0\n');
  return 0;
};

export const whoami: Command = (_argv, io) => {
  io.out('shell\n');
  return 0;
};

export const sleep: Command = (argv, io) => {
  const seconds = Number(argv[1]);
  if (!Number.isFinite(seconds) || seconds < 0) {
    io.err(`sleep: invalid number '${argv[1] ?? ''}'\n`);
    return 1;
  }
  return new Promise<number>((resolve) => {
    const timer = setTimeout(() => resolve(0), seconds * 1000);
    io.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(130);
    });
  });
};

/** `ps -A` / `ps -e`: system processes and the running apps (`u0_aNN` users). */
export const ps: Command = (_argv, io) => {
  const phone = io.phone;
  const rows: [string, number, number, string][] = [
    ['root', 1, 0, 'init'],
    ['system', 612, 1, 'system_server'],
    ['u0_a98', 1180, 1, 'com.android.systemui'],
    ['u0_a99', 1320, 1, 'com.google.android.apps.nexuslauncher'],
    ['u0_a97', 1410, 1, 'com.google.android.inputmethod.latin'],
    ['shell', 3900, 1, 'adbd'],
  ];
  for (const pkg of phone.runningPackages()) rows.push([`u0_a${(phone.uidOf(pkg) ?? 10000) - 10000}`, phone.pidOf(pkg) ?? 0, 612, pkg]);
  io.out('USER            PID   PPID        VSZ    RSS WCHAN            ADDR S NAME\n');
  for (const [user, pid, ppid, name] of rows) io.out(`${user.padEnd(12)} ${String(pid).padStart(6)} ${String(ppid).padStart(6)} ${'15280132'.padStart(10)} ${'180340'.padStart(6)} 0                   0 S ${name}\n`);
  return 0;
};

/** `rm [-f] [-r] PATH…` (files and empty directories: what `adb install`'s clean-up removes). */
export const rm: Command = (argv, io) => {
  const force = argv.slice(1).some((a) => /^-[a-zA-Z]*f/.test(a));
  let status = 0;
  for (const path of argv.slice(1).filter((a) => !a.startsWith('-'))) {
    if (io.files.remove?.(path)) continue;
    if (force && !io.files.stat(path)) continue;
    io.err(`rm: ${path}: ${io.files.stat(path) ? 'Directory not empty' : 'No such file or directory'}\n`);
    status = 1;
  }
  return status;
};
