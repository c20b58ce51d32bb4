import { hostname } from 'node:os';

/**
 * Which process runs a task: `pid@host`. Several Apex processes may share one data directory (say `apex serve`
 * and an `apex mcp` started by an MCP client, each with its own embedded phone); each runs only its own tasks,
 * and recovers or adopts those of a process that is gone.
 */
export function currentOwner(): string {
  return `${process.pid}@${hostname()}`;
}

/** Whether the owning process still runs. Owners on another host are assumed alive: they cannot be checked. */
export function ownerAlive(owner: string): boolean {
  const match = /^(\d+)@(.*)$/.exec(owner);
  if (!match) return false;
  if (match[2] !== hostname()) return true;
  const pid = Number(match[1]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
