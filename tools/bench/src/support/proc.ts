import { readFileSync } from 'node:fs';

/**
 * CPU milliseconds (user + system, all threads) a live process has used so far, from /proc/<pid>/stat: utime and
 * stime are fields 14 and 15 (here 12 and 13 after pid and comm), in clock ticks of 10 ms (USER_HZ 100 on Linux).
 */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`cannot read the CPU time of process ${pid} from /proc`);
  return ticks * 10;
}

/** Resident memory of a live process in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`cannot read the resident memory of process ${pid} from /proc`);
  return Number(match[1]) * 1024;
}

/** This process's CPU milliseconds (user + system) so far. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Threads of a live process (Threads of /proc/<pid>/status). */
export function threadCount(pid: number): number {
  const match = /^Threads:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`cannot read the threads of process ${pid} from /proc`);
  return Number(match[1]);
}
