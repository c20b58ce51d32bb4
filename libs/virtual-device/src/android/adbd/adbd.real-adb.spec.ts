import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@apex/testing';
import { testBackend } from '../../testing/adb-test-shell';
import { describeWithRealAdb, freePort, startRealAdbServer, type RealAdbServer } from '../../testing/real-adb';
import { startAdbd, type Adbd } from './adbd';
import type { ShellSession } from './device-backend';

/** 1 MiB of every byte value, in a fixed order: what `exec-out blob` writes. */
const BLOB = Buffer.from(Array.from({ length: 1024 * 1024 }, (_, i) => (i * 7 + (i >> 11)) & 0xff));
const FORWARD_TARGET_PORT = 7100;

describeWithRealAdb('the virtual adbd, driven by the real adb binary', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  let echo: Server;
  let work: string;
  const hanging: ShellSession[] = [];
  const backend = testBackend({
    extra: {
      blob: (s) => {
        s.write(BLOB);
        return 0;
      },
      both: (s) => {
        s.write('to stdout\n');
        s.writeError('to stderr\n');
        return 5;
      },
      hang: (s) =>
        new Promise<number>((resolve) => {
          hanging.push(s);
          s.signal.addEventListener('abort', () => resolve(0), { once: true });
        }),
    },
    connectTcp: async (port) => {
      if (port !== FORWARD_TARGET_PORT) return undefined;
      const address = echo.address();
      if (!address || typeof address !== 'object') return undefined;
      const socket = connect(address.port, '127.0.0.1');
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      return socket;
    },
  });
  const serial = (): string[] => ['-s', adbd.serial];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'apex-adbd-'));
    echo = createServer((socket: Socket) => socket.on('data', (d: Buffer) => socket.write(`echo:${d.toString()}`)));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    adbd = await startAdbd({ backend, host: '127.0.0.1' });
    adb = await startRealAdbServer();
    const connected = await adb.run(['connect', adbd.serial]);
    expect(connected.stdout.toString()).toContain(`connected to ${adbd.serial}`);
    await eventually(async () => (await adb.run([...serial(), 'get-state'])).stdout.toString().trim() === 'device', {
      timeoutMs: 20_000,
      what: 'the device to be online in adb',
    });
  }, 60_000);

  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
    await new Promise((resolve) => echo?.close(resolve));
    if (work) await rm(work, { recursive: true, force: true });
  }, 30_000);

  it('lists the device with the identity of its banner', async () => {
    const listed = await adb.run(['devices', '-l']);
    expect(listed.stdout.toString()).toMatch(
      new RegExp(`${adbd.serial.replace(/\./g, '\\.')}\\s+device product:apex_test model:Apex_Test_Phone device:apextest`),
    );
    // `adb features` shows what both the host and the device support; adb 29 predates sendrecv_v2.
    const features = await adb.run([...serial(), 'features']);
    expect(features.stdout.toString().trim().split('\n').sort()).toEqual(['fixed_push_mkdir', 'ls_v2', 'shell_v2', 'stat_v2']);
  });

  it('runs a shell command over shell v2 and hands back its exit code', async () => {
    const hi = await adb.run([...serial(), 'shell', 'echo', 'hi']);
    expect(hi).toMatchObject({ code: 0, stderr: '' });
    expect(hi.stdout.toString()).toBe('hi\n');

    expect((await adb.run([...serial(), 'shell', 'exit', '3'])).code).toBe(3);

    const unknown = await adb.run([...serial(), 'shell', 'frobnicate']);
    expect(unknown.code).toBe(127);
    expect(unknown.stderr).toBe('/system/bin/sh: frobnicate: inaccessible or not found\n');
  });

  it('keeps stdout and stderr apart over shell v2, and merges them with -x (shell v1, no exit code)', async () => {
    const v2 = await adb.run([...serial(), 'shell', 'both']);
    expect(v2.code).toBe(5);
    expect(v2.stdout.toString()).toBe('to stdout\n');
    expect(v2.stderr).toBe('to stderr\n');

    const v1 = await adb.run([...serial(), 'shell', '-x', 'both']);
    expect(v1.code).toBe(0);
    expect(v1.stdout.toString()).toBe('to stdout\nto stderr\n');
  });

  it('pipes stdin to the command (cat) and ends it when stdin closes', async () => {
    const input = `${'the quick brown fox\n'.repeat(5000)}end\n`;
    const cat = await adb.run([...serial(), 'shell', 'cat'], { input });
    expect(cat.code).toBe(0);
    expect(cat.stdout.toString()).toBe(input);
  });

  it('streams 1 MiB of binary output byte for byte through exec-out', async () => {
    const out = await adb.run([...serial(), 'exec-out', 'blob']);
    expect(out.code).toBe(0);
    expect(out.stdout.length).toBe(BLOB.length);
    expect(createHash('sha256').update(out.stdout).digest('hex')).toBe(createHash('sha256').update(BLOB).digest('hex'));
  });

  it('runs two exec-out streams at once without mixing them', async () => {
    const [a, b] = await Promise.all([adb.run([...serial(), 'exec-out', 'blob']), adb.run([...serial(), 'exec-out', 'echo', 'alone'])]);
    expect(a.stdout.equals(BLOB)).toBe(true);
    expect(b.stdout.toString()).toBe('alone\n');
  });

  it('pushes and pulls a 3 MB random file byte for byte, with the device mode and the file mtime', async () => {
    const data = randomBytes(3 * 1024 * 1024);
    const local = join(work, 'random.bin');
    await writeFile(local, data);
    await chmod(local, 0o755);
    const mtime = 1_700_000_000;
    await utimes(local, mtime, mtime);

    const pushed = await adb.run([...serial(), 'push', local, '/data/local/tmp/deep/dir/random.bin'], { timeoutMs: 60_000 });
    expect(pushed.code).toBe(0);
    expect(pushed.stdout.toString()).toContain('1 file pushed');
    const onDevice = backend.files.stat('/data/local/tmp/deep/dir/random.bin');
    // adbd copies the owner's bits to group and other (file_sync_service.cpp): 0755 lands as 0777.
    expect(onDevice).toEqual({ name: 'random.bin', mode: 0o100777, size: data.length, mtime });
    expect(Buffer.from(backend.files.read('/data/local/tmp/deep/dir/random.bin') ?? []).equals(data)).toBe(true);

    const back = join(work, 'back.bin');
    const pulled = await adb.run([...serial(), 'pull', '-a', '/data/local/tmp/deep/dir/random.bin', back], { timeoutMs: 60_000 });
    expect(pulled.code).toBe(0);
    expect((await readFile(back)).equals(data)).toBe(true);
    const st = await stat(back);
    expect(st.mode & 0o777).toBe(0o777 & ~process.umask());
    expect(Math.trunc(st.mtimeMs / 1000)).toBe(mtime);
  }, 120_000);

  it('pushes a directory tree into an existing directory and pulls it back', async () => {
    const tree = join(work, 'tree');
    await mkdir(join(tree, 'sub'), { recursive: true });
    await writeFile(join(tree, 'one.txt'), 'one');
    await writeFile(join(tree, 'sub', 'two.txt'), 'two');
    backend.files.mkdir('/sdcard/Documents');

    const pushed = await adb.run([...serial(), 'push', tree, '/sdcard/Documents']);
    expect(pushed.code).toBe(0);
    expect(pushed.stdout.toString()).toContain('2 files pushed');
    expect(backend.files.list('/sdcard/Documents/tree/sub')?.map((e) => e.name)).toEqual(['two.txt']);

    const back = join(work, 'tree-back');
    const pulled = await adb.run([...serial(), 'pull', '/sdcard/Documents/tree', back]);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(back, 'one.txt'), 'utf8')).toBe('one');
    expect(await readFile(join(back, 'sub', 'two.txt'), 'utf8')).toBe('two');
  });

  it('answers a pull of a missing file with adb\'s own error', async () => {
    const pulled = await adb.run([...serial(), 'pull', '/sdcard/nothing-here.txt', join(work, 'nothing')]);
    expect(pulled.code).toBe(1);
    // adb 29 prints its errors through the progress line, on stdout.
    expect(pulled.stdout.toString() + pulled.stderr).toContain(
      "adb: error: failed to stat remote object '/sdcard/nothing-here.txt': No such file or directory",
    );
  });

  it('lists a directory through sync LIST', async () => {
    backend.files.write('/sdcard/Download/a.txt', Buffer.from('abc'), 0o644, 1_600_000_000);
    const listed = await adb.run([...serial(), 'ls', '/sdcard/Download']);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.toString().trim().split('\n');
    expect(lines).toContain(`000081a4 00000003 ${(1_600_000_000).toString(16)} a.txt`);
    expect(lines.some((l) => l.endsWith(' .'))).toBe(true);
  });

  it('forwards a host port to a device port (tcp:) and carries bytes both ways', async () => {
    const hostPort = await freePort();
    const forwarded = await adb.run([...serial(), 'forward', `tcp:${hostPort}`, `tcp:${FORWARD_TARGET_PORT}`]);
    expect(forwarded.code).toBe(0);
    const socket = connect(hostPort, '127.0.0.1');
    const reply = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('ping')) resolve(text);
      });
      socket.on('error', reject);
      socket.on('connect', () => socket.write('ping'));
    });
    socket.destroy();
    expect(reply).toBe('echo:ping');
    await adb.run([...serial(), 'forward', '--remove', `tcp:${hostPort}`]);
  });

  it('refuses root as a user build does', async () => {
    const root = await adb.run([...serial(), 'root']);
    expect(root.stdout.toString() + root.stderr).toContain('adbd cannot run as root in production builds');
  });

  it('aborts the session when the adb client goes away mid-command', async () => {
    const child = adb.spawn([...serial(), 'shell', 'hang']);
    const session = await eventually(() => hanging[0], { timeoutMs: 20_000, what: 'the hang command to start' });
    expect(session.signal.aborted).toBe(false);
    child.kill('SIGKILL');
    await eventually(() => session.signal.aborted, { timeoutMs: 20_000, what: 'the session to be aborted' });
  });

  it('disconnects', async () => {
    expect(adbd.connectionCount()).toBe(1);
    const out = await adb.run(['disconnect', adbd.serial]);
    expect(out.stdout.toString()).toContain(`disconnected ${adbd.serial}`);
    await eventually(() => adbd.connectionCount() === 0, { timeoutMs: 20_000, what: 'the connection to close' });
  });
});

/**
 * The optional authentication against the real adb as the host: it signs our token with its own key (made in
 * its private home), we refuse the unknown key, it offers the public key, the prompt allows it, and the next
 * connection is accepted by signature alone.
 */
describeWithRealAdb('the virtual adbd with authentication, driven by the real adb binary', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  const trustedKeys = new Set<string>();
  const prompts: string[] = [];
  let allow = false;

  beforeAll(async () => {
    adbd = await startAdbd({
      backend: testBackend(),
      host: '127.0.0.1',
      auth: {
        trustedKeys,
        allow: (key) => {
          prompts.push(key);
          return allow;
        },
      },
    });
    adb = await startRealAdbServer();
  }, 60_000);

  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
  }, 30_000);

  const state = async (): Promise<string> => (await adb.run(['-s', adbd.serial, 'get-state'], { timeoutMs: 5_000 })).stdout.toString().trim();

  it('an unknown key: adb offers its public key, the prompt sees it, and adb stays unauthorized while not allowed', async () => {
    await adb.run(['connect', adbd.serial]);
    await eventually(() => prompts.length === 1, { timeoutMs: 20_000, what: 'adb to offer its public key' });
    expect(prompts[0]).toMatch(/^[A-Za-z0-9+/]+=* \S+/);
    const devices = (await adb.run(['devices'])).stdout.toString();
    expect(devices).toContain(`${adbd.serial}\tunauthorized`);
    expect(trustedKeys.size).toBe(0);
  });

  it('allowed: the next connection signs the token with the key, which now verifies; commands run', async () => {
    allow = true;
    trustedKeys.add(prompts[0] as string); // what "Always allow" would have stored
    await adb.run(['disconnect', adbd.serial]);
    await adb.run(['connect', adbd.serial]);
    await eventually(async () => (await state()) === 'device', { timeoutMs: 20_000, what: 'adb to see the device online' });
    const echoed = await adb.run(['-s', adbd.serial, 'shell', 'echo', 'signed']);
    expect(echoed.stdout.toString()).toBe('signed\n');
    expect(prompts).toHaveLength(1); // accepted by signature: no second prompt
  });
});
