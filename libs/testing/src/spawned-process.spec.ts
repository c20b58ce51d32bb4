import { spawnNode, type SpawnedProcess } from './spawned-process';

const WAIT = { timeoutMs: 30_000 };

/** `node -e <script>`. */
const script = (source: string, options?: Parameters<typeof spawnNode>[1]) => spawnNode(['-e', source], options);

describe('spawnNode', () => {
  it('reads stdout line by line, joining a line split across writes', async () => {
    const child = script(`
      process.stdout.write('one\\ntwo\\r\\npar');
      setTimeout(() => process.stdout.write('tial\\nlast without newline'), 20);
    `);
    const match = await child.waitForLine(/^par(\w+)$/, WAIT);
    expect(match[1]).toBe('tial');
    expect(await child.waitForExit(WAIT)).toEqual({ code: 0, signal: null });
    expect(child.stdoutLines).toEqual(['one', 'two', 'partial', 'last without newline']);
    expect(child.stdout()).toBe('one\ntwo\npartial\nlast without newline');
  });

  it('finds a line printed before the wait began', async () => {
    const child = script(`console.log('URL http://127.0.0.1:1234'); setInterval(() => {}, 1000);`);
    await child.waitForLine(/URL/, WAIT);
    const [, url] = await child.waitForLine(/URL (\S+)/, WAIT);
    expect(url).toBe('http://127.0.0.1:1234');
    child.kill();
    expect(await child.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('reads stderr when asked, and passes env and cwd', async () => {
    const child = script(`console.error('HELLO=' + process.env.HELLO + ' cwd=' + process.cwd())`, {
      env: { PATH: process.env.PATH, HELLO: 'there' },
      cwd: '/',
    });
    const [line] = await child.waitForLine(/^HELLO=.*$/, { ...WAIT, stream: 'stderr' });
    expect(line).toBe('HELLO=there cwd=/');
    expect(child.stdoutLines).toEqual([]);
  });

  it('rejects with the lines seen so far when the process ends first', async () => {
    const child = script(`console.log('starting'); console.error('boom'); process.exit(3)`);
    await expect(child.waitForLine(/listening/, WAIT)).rejects.toThrow(/ended \(code 3\) before a stdout line matching \/listening\/\nstdout:\n {2}starting\nstderr:\n {2}boom/);
    expect(await child.exited).toEqual({ code: 3, signal: null });
  });

  it('rejects with the lines seen so far on the deadline, and can still be stopped', async () => {
    const child = script(`console.log('still booting'); setInterval(() => {}, 1000);`);
    await child.waitForLine(/booting/, WAIT);
    await expect(child.waitForLine(/ready/, { timeoutMs: 100 })).rejects.toThrow(/no stdout line matching \/ready\/ .* within 100 ms\nstdout:\n {2}still booting/);
    await expect(child.waitForExit({ timeoutMs: 100 })).rejects.toThrow(/still running after 100 ms/);
    child.kill('SIGINT');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGINT' });
  });

  it('writes to stdin and closes it', async () => {
    const child = script(`
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (text) => process.stdout.write(text.toUpperCase()));
      process.stdin.on('end', () => console.log('bye'));
    `);
    child.write('ping\n');
    await child.waitForLine(/^PING$/, WAIT);
    child.endInput();
    await child.waitForLine(/^bye$/, WAIT);
    expect((await child.exited).code).toBe(0);
  });

  it('reports a process that cannot start as ended', async () => {
    const child = spawnNode(['-e', 'console.log(1)'], { cwd: '/no/such/directory' });
    await expect(child.waitForLine(/1/, WAIT)).rejects.toThrow(/ended .*spawn failed/s);
  });

  describe('cleanup', () => {
    let leftRunning: SpawnedProcess | undefined;
    let fromBeforeAll: SpawnedProcess;
    let beforeAllEnded = false;

    beforeAll(() => {
      fromBeforeAll = script('setInterval(() => {}, 1000)');
      void fromBeforeAll.exited.then(() => (beforeAllEnded = true));
    });

    it('leaves a running child behind on purpose', async () => {
      leftRunning = script(`console.log('up'); setInterval(() => {}, 1000);`);
      await leftRunning.waitForLine(/up/, WAIT);
    });

    it('found it killed (SIGKILL) when the test that started it ended', async () => {
      expect(leftRunning).toBeDefined();
      expect(await leftRunning?.exited).toEqual({ code: null, signal: 'SIGKILL' });
    });

    it('keeps a child started in beforeAll across tests (the file end kills it)', async () => {
      await fromBeforeAll.waitForExit({ timeoutMs: 200 }).catch(() => undefined);
      expect(beforeAllEnded).toBe(false);
    });
  });
});
