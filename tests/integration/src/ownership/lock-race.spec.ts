import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { lockFileFor } from '@apex/runtime';

interface Answer {
  round: number;
  held?: boolean;
  instanceId?: string;
  error?: string;
}

/** A lock-racer.ts process: `claim(round, file, at)` answers once it has claimed the lock at the instant `at`. */
function startRacer() {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child: ChildProcess = spawn(process.execPath, ['--import', tsx, join(__dirname, 'lock-racer.ts')], {
    cwd: tmpdir(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pending = new Map<number, (answer: Answer) => void>();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const answer = JSON.parse(line) as Answer;
    pending.get(answer.round)?.(answer);
    pending.delete(answer.round);
  });
  return {
    child,
    stderr: () => stderr,
    claim(round: number, file: string, at: number): Promise<Answer> {
      return new Promise((resolve) => {
        pending.set(round, resolve);
        child.stdin?.write(`${JSON.stringify({ round, file, at })}\n`);
      });
    },
  };
}

describe('two processes racing for one device lock', () => {
  let dir: string;
  let racers: ReturnType<typeof startRacer>[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-lock-race-'));
    racers = [startRacer(), startRacer()];
  });
  afterAll(() => {
    for (const racer of racers) racer.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exactly one wins every round, free lock or stale one, and no reader ever sees the file empty or half-written', async () => {
    // The first round also waits for both processes to have started.
    await Promise.all(racers.map((racer, i) => racer.claim(-1 - i, join(dir, `warm-up-${i}.lock`), 0)));
    const torn: string[] = [];
    for (let round = 0; round < 100; round += 1) {
      const file = lockFileFor(dir, `http://127.0.0.1:${9000 + round}`);
      if (round % 2 === 1) {
        // A lock left by a process whose lease ran out, naming a live pid (this one).
        mkdirSync(dirname(file), { recursive: true });
        const stale = { instanceId: `gone-${round}`, pid: process.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', deviceId: 'raced', expiresAt: Date.now() - 1 };
        writeFileSync(file, JSON.stringify(stale));
      }
      const at = Date.now() + 30;
      const answers = Promise.all(racers.map((racer) => racer.claim(round, file, at)));
      let settled = false;
      void answers.finally(() => (settled = true));
      while (!settled) {
        const content = await readFile(file, 'utf8').catch(() => undefined);
        if (content !== undefined) {
          try {
            JSON.parse(content);
          } catch {
            torn.push(content);
          }
        }
      }
      const [a, b] = await answers;
      expect([a.error, b.error]).toEqual([undefined, undefined]);
      expect([a.held, b.held].filter(Boolean)).toHaveLength(1);
      const winner = a.held ? a : b;
      expect(JSON.parse(await readFile(file, 'utf8')).instanceId).toBe(winner.instanceId);
    }
    expect(torn).toEqual([]);
    // No temp files or take-over markers left behind.
    const leftovers = (await readdir(join(dir, 'locks'))).filter((name) => !name.endsWith('.lock'));
    expect(leftovers).toEqual([]);
  }, 120_000);
});
