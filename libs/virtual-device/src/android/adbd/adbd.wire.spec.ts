import { connect } from 'node:net';
import { eventually } from '@apex/testing';
import { testBackend } from '../../testing/adb-test-shell';
import { connectWire, type WireClient, type WireStream } from '../../testing/adb-wire-client';
import { ADBD_FEATURES, startAdbd, type Adbd } from './adbd';
import type { ShellSession } from './device-backend';
import {
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_VERSION_MIN,
  A_WRTE,
  encodePacket,
  HEADER_SIZE,
  MAX_PAYLOAD,
  payloadChecksum,
} from './packet';

/** Splits a shell-protocol byte stream into { id, data } packets. */
function shellPackets(bytes: Buffer): Array<{ id: number; data: Buffer }> {
  const out: Array<{ id: number; data: Buffer }> = [];
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = bytes.readUInt32LE(at + 1);
    out.push({ id: bytes[at], data: bytes.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  expect(at).toBe(bytes.length);
  return out;
}

function shellResult(bytes: Buffer): { stdout: string; stderr: string; exit: number | undefined } {
  const packets = shellPackets(bytes);
  const text = (id: number) =>
    Buffer.concat(packets.filter((p) => p.id === id).map((p) => p.data)).toString('latin1');
  const exit = packets.find((p) => p.id === 3);
  return { stdout: text(1), stderr: text(2), exit: exit?.data[0] };
}

function shellPacket(id: number, data: string | Buffer = ''): Buffer {
  const body = Buffer.from(data);
  const header = Buffer.alloc(5);
  header[0] = id;
  header.writeUInt32LE(body.length, 1);
  return Buffer.concat([header, body]);
}

const syncRequest = (id: string, body: string | Buffer): Buffer => {
  const b = Buffer.from(body);
  const h = Buffer.alloc(8);
  h.write(id, 0, 'latin1');
  h.writeUInt32LE(b.length, 4);
  return Buffer.concat([h, b]);
};

/** Reads until `bytes` holds `n` bytes (sync replies arrive as the stream's WRTEs). */
async function receivedAtLeast(stream: WireStream, n: number): Promise<Buffer> {
  return until(() => {
    const all = Buffer.concat(stream.received);
    return all.length >= n ? all : undefined;
  }, `${n} bytes on the stream`);
}

/** `eventually` for a value that is undefined until it is there. */
async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  const value = await eventually(check, { timeoutMs: 10_000, what });
  if (value === undefined) throw new Error(`no ${what}`);
  return value;
}

describe('the virtual adbd on the wire', () => {
  let adbd: Adbd;
  const sessions: ShellSession[] = [];
  const backend = testBackend({
    extra: {
      letters: (s, [letter, count]) => {
        // Many small writes, so two streams at once would interleave if the adbd mixed them up.
        for (let i = 0; i < Number(count); i += 1000) s.write(letter.repeat(Math.min(1000, Number(count) - i)));
        return 0;
      },
      hang: (s) =>
        new Promise<number>((resolve) => {
          sessions.push(s);
          s.signal.addEventListener('abort', () => resolve(0), { once: true });
        }),
      broken: () => {
        throw new Error('the backend fell over');
      },
    },
  });
  let clients: WireClient[] = [];

  const client = async (): Promise<WireClient> => {
    const c = await connectWire(adbd.port);
    clients.push(c);
    return c;
  };
  const online = async (): Promise<WireClient> => {
    const c = await client();
    await c.handshake();
    return c;
  };

  beforeAll(async () => {
    adbd = await startAdbd({ backend, maxPushBytes: 100_000 });
  });
  afterEach(() => {
    for (const c of clients) c.close();
    clients = [];
  });
  afterAll(async () => {
    await adbd.close();
  });

  describe('connection', () => {
    it('answers CNXN with its version, the smaller max payload and the banner, no AUTH asked', async () => {
      const c = await client();
      const reply = await c.handshake({ maxPayload: 256 * 1024 });
      expect(reply.command).toBe(A_CNXN);
      expect(reply.arg0).toBe(A_VERSION);
      expect(reply.arg1).toBe(256 * 1024);
      expect(reply.payload.toString()).toBe(
        `device::ro.product.name=apex_test;ro.product.model=Apex Test Phone;ro.product.device=apextest;features=${ADBD_FEATURES.join(',')}`,
      );
      const big = await (await client()).handshake({ maxPayload: 16 * 1024 * 1024 });
      expect(big.arg1).toBe(MAX_PAYLOAD);
    });

    it('speaks the checksummed protocol to a host of version 0x01000000', async () => {
      const socket = connect(adbd.port, '127.0.0.1');
      const payload = Buffer.from('host::\0');
      socket.write(encodePacket({ command: A_CNXN, arg0: A_VERSION_MIN, arg1: 4096, payload }, true));
      const reply = await new Promise<Buffer>((resolve) => {
        let got = Buffer.alloc(0);
        socket.on('data', (d: Buffer) => {
          got = Buffer.concat([got, d]);
          if (got.length >= HEADER_SIZE && got.length >= HEADER_SIZE + got.readUInt32LE(12)) resolve(got);
        });
      });
      socket.destroy();
      const body = reply.subarray(HEADER_SIZE, HEADER_SIZE + reply.readUInt32LE(12));
      expect(reply.readUInt32LE(0)).toBe(A_CNXN);
      expect(reply.readUInt32LE(16)).toBe(payloadChecksum(body));
      expect(reply.readUInt32LE(16)).not.toBe(0);
    });

    it('drops a version-0x01000000 host whose checksum is wrong', async () => {
      const c = await client();
      const packet = encodePacket({ command: A_CNXN, arg0: A_VERSION_MIN, arg1: 4096, payload: Buffer.from('host::\0') }, true);
      packet.writeUInt32LE(packet.readUInt32LE(16) + 1, 16);
      c.sendRaw(packet);
      await c.ended;
    });

    it('reassembles packets split into single bytes and separates packets sent together', async () => {
      const c = await client();
      const cnxn = encodePacket({ command: A_CNXN, arg0: A_VERSION, arg1: MAX_PAYLOAD, payload: Buffer.from('host::\0') }, false);
      for (const byte of cnxn) c.sendRaw(Uint8Array.of(byte));
      expect((await c.nextPacket()).command).toBe(A_CNXN);

      // Two OPENs in one write.
      c.sendRaw(
        Buffer.concat([
          encodePacket({ command: A_OPEN, arg0: 7, arg1: 0, payload: Buffer.from('shell,v2,raw:echo one\0') }, false),
          encodePacket({ command: A_OPEN, arg0: 8, arg1: 0, payload: Buffer.from('no-such-service:\0') }, false),
        ]),
      );
      const seen = [await c.nextPacket(), await c.nextPacket()];
      expect(seen.find((p) => p.arg1 === 8)).toMatchObject({ command: A_CLSE, arg0: 0 });
      expect(seen.find((p) => p.arg1 === 7)).toMatchObject({ command: A_OKAY });
    });

    it('ignores everything before CNXN', async () => {
      const c = await client();
      c.send({ command: A_OPEN, arg0: 5, arg1: 0, payload: Buffer.from('shell:echo early\0') });
      const reply = await c.handshake();
      expect(reply.command).toBe(A_CNXN);
      expect(await c.open('shell,v2,raw:echo later')).toBeDefined();
    });

    it.each([
      ['a bad magic', () => { const p = encodePacket({ command: A_CNXN, arg0: A_VERSION, arg1: MAX_PAYLOAD, payload: Buffer.alloc(0) }, false); p.writeUInt32LE(0x12345678, 20); return p; }],
      ['an unknown command', () => encodePacket({ command: 0x41424344, arg0: 0, arg1: 0, payload: Buffer.alloc(0) }, false)],
      ['a length over the max payload', () => { const p = encodePacket({ command: A_WRTE, arg0: 1, arg1: 1, payload: Buffer.alloc(0) }, false); p.writeUInt32LE(MAX_PAYLOAD + 1, 12); return p; }],
      ['random garbage', () => Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')],
    ])('drops the connection on %s and keeps serving others', async (_what, bytes) => {
      const bad = await online();
      bad.sendRaw(bytes());
      await bad.ended;
      const good = await online();
      const s = await good.stream('shell,v2,raw:echo still here');
      expect(shellResult(await s.readAll()).stdout).toBe('still here\n');
    });

    it('survives well-framed nonsense: random commands, ids, services and payloads', async () => {
      // A fixed-seed generator: the same nonsense on every run.
      let seed = 0x2545f491;
      const next = (): number => {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        return seed >>> 0;
      };
      const commands = [A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_CNXN];
      const names = ['shell,v2,raw:cat', 'sync:', 'exec:echo x', 'shell:', 'tcp:1', 'root:', '', 'shell,v2', 'sync'];
      for (let round = 0; round < 5; round++) {
        const c = await online();
        const opened = await c.stream('sync:');
        for (let i = 0; i < 200; i++) {
          const command = commands[next() % commands.length];
          const payload =
            command === A_OPEN
              ? Buffer.from(`${names[next() % names.length]}\0`)
              : Buffer.from(Array.from({ length: next() % 64 }, () => next() & 0xff));
          const pick = next() % 3;
          const arg0 = pick === 0 ? opened.localId : pick === 1 ? next() % 8 : next();
          const arg1 = command === A_CNXN ? MAX_PAYLOAD : pick === 0 ? opened.remoteId : next() % 8;
          c.send({ command, arg0, arg1, payload }, false);
        }
        // Whatever it made of that, the device either still answers or has hung up.
        await Promise.race([c.ended, c.open('exec:echo x')]);
        c.close();
      }
      const after = await online();
      const s = await after.stream('shell,v2,raw:echo alive');
      expect(shellResult(await s.readAll()).stdout).toBe('alive\n');
    });

    it('drops a connection whose WRTE exceeds the max payload it negotiated', async () => {
      const c = await client();
      await c.handshake({ maxPayload: 4096 });
      const s = await c.stream('shell,v2,raw:hang');
      c.send({ command: A_WRTE, arg0: s.localId, arg1: s.remoteId, payload: Buffer.alloc(4097) }, false);
      await c.ended;
    });

    it('refuses a host that offers too small a max payload or an unknown version', async () => {
      const small = await client();
      small.send({ command: A_CNXN, arg0: A_VERSION, arg1: 100, payload: Buffer.from('host::\0') }, false);
      await small.ended;
      const old = await client();
      old.send({ command: A_CNXN, arg0: 0x00ffffff, arg1: MAX_PAYLOAD, payload: Buffer.from('host::\0') }, true);
      await old.ended;
    });
  });

  describe('streams', () => {
    it('refuses unknown services, tcp without a backend port, remote hosts and delayed-ack OPENs with CLSE', async () => {
      const c = await online();
      expect(await c.open('framebuffer:')).toBeUndefined();
      expect(await c.open('tcp:8080')).toBeUndefined();
      expect(await c.open('tcp:example.com:80')).toBeUndefined();
      expect(await c.open('host:version')).toBeUndefined();
      c.send({ command: A_OPEN, arg0: 99, arg1: 32 * 1024, payload: Buffer.from('shell:echo x\0') });
      expect(await c.nextPacket()).toMatchObject({ command: A_CLSE, arg0: 0, arg1: 99 });
    });

    it('keeps two concurrent shell streams apart', async () => {
      const c = await online();
      const [a, b] = await Promise.all([c.stream('shell,v2,raw:letters a 300000'), c.stream('shell,v2,raw:letters b 200000')]);
      const [ra, rb] = await Promise.all([a.readAll(), b.readAll()]);
      expect(shellResult(ra)).toEqual({ stdout: 'a'.repeat(300000), stderr: '', exit: 0 });
      expect(shellResult(rb)).toEqual({ stdout: 'b'.repeat(200000), stderr: '', exit: 0 });
    });

    it('sends one WRTE per stream until the host OKAYs it, while other streams go on', async () => {
      const c = await client();
      await c.handshake({ maxPayload: 4096 });
      const slow = await c.stream('exec:letters s 100000', { autoAck: false });
      await eventually(() => slow.received.length === 1, { timeoutMs: 10_000, what: 'the first WRTE' });

      const other = await c.stream('exec:echo meanwhile');
      expect((await other.readAll()).toString()).toBe('meanwhile\n');
      expect(slow.received).toHaveLength(1);

      slow.autoAck = true;
      slow.ack();
      expect((await slow.readAll()).toString()).toBe('s'.repeat(100000));
      // Small writes queued meanwhile go out coalesced, never above the negotiated max payload.
      expect(Math.max(...slow.received.map((b) => b.length))).toBe(4096);
    });

    it('holds back its OKAY while stdin is not read, and drops a host that writes on regardless', async () => {
      const c = await online();
      const s = await c.stream('shell,v2,raw:hang');
      await s.write(shellPacket(0, Buffer.alloc(MAX_PAYLOAD - 5)));
      let second = false;
      void s.write(shellPacket(0, Buffer.alloc(MAX_PAYLOAD - 5))).then(() => (second = true));
      // A third WRTE without an OKAY for the second breaks the protocol.
      c.send({ command: A_WRTE, arg0: s.localId, arg1: s.remoteId, payload: shellPacket(0, 'x') });
      await c.ended;
      expect(second).toBe(false);
    });

    it('passes stdin to the command, ends it on close-stdin, and reports the exit code (shell v2)', async () => {
      const c = await online();
      const s = await c.stream('shell,v2,raw:cat');
      await s.write(Buffer.concat([shellPacket(0, 'hello '), shellPacket(5, '24x80,0x0')]));
      await s.write(Buffer.concat([shellPacket(0, 'world'), shellPacket(4)]));
      expect(shellResult(await s.readAll())).toEqual({ stdout: 'hello world', stderr: '', exit: 0 });
    });

    it('merges stderr into stdout for a PTY and for shell v1, and gives raw bytes for exec', async () => {
      const c = await online();
      const pty = await c.stream('shell,v2,pty:nothing-such');
      expect(shellResult(await pty.readAll())).toEqual({
        stdout: '/system/bin/sh: nothing-such: inaccessible or not found\n',
        stderr: '',
        exit: 127,
      });
      const v1 = await c.stream('shell:nothing-such');
      expect((await v1.readAll()).toString()).toBe('/system/bin/sh: nothing-such: inaccessible or not found\n');
      const exec = await c.stream('exec:exit 4');
      expect((await exec.readAll()).length).toBe(0);
    });

    it('answers a backend that throws like adbd answers a command it cannot start', async () => {
      const c = await online();
      const s = await c.stream('shell,v2:broken');
      expect(shellResult(await s.readAll())).toEqual({ stdout: '', stderr: 'error: the backend fell over\n', exit: 126 });
    });

    it('aborts the session when the host closes the stream, and when the connection drops', async () => {
      const c = await online();
      const s = await c.stream('shell,v2,raw:hang');
      const first = await until(() => sessions.at(-1), 'the session');
      s.close();
      await eventually(() => first.signal.aborted, { timeoutMs: 10_000, what: 'abort on CLSE' });

      await c.stream('exec:hang');
      const second = await until(() => (sessions.at(-1) !== first ? sessions.at(-1) : undefined), 'the second session');
      c.close();
      await eventually(() => second.signal.aborted, { timeoutMs: 10_000, what: 'abort on disconnect' });
      await eventually(() => adbd.connectionCount() === clients.length - 1, { timeoutMs: 10_000, what: 'the connection to go' });
    });

    it('refuses root and remount as a user build does', async () => {
      const c = await online();
      expect((await (await c.stream('root:')).readAll()).toString()).toBe('adbd cannot run as root in production builds\n');
      expect((await (await c.stream('remount:')).readAll()).toString()).toBe('Not running as root. Try "adb root" first.\n');
    });
  });

  describe('sync', () => {
    it('stats (v1 and v2), lists (v1 and v2), sends and receives (v2)', async () => {
      backend.files.write('/sdcard/notes.txt', Buffer.from('hello'), 0o660, 1_650_000_000);
      const c = await online();
      const s = await c.stream('sync:');
      await s.write(syncRequest('STAT', '/sdcard/notes.txt'));
      let got = await receivedAtLeast(s, 16);
      expect([got.toString('latin1', 0, 4), got.readUInt32LE(4), got.readUInt32LE(8), got.readUInt32LE(12)]).toEqual([
        'STAT',
        0o100660,
        5,
        1_650_000_000,
      ]);
      s.received.length = 0;

      await s.write(syncRequest('STA2', '/sdcard/missing'));
      got = await receivedAtLeast(s, 72);
      expect(got.toString('latin1', 0, 4)).toBe('STA2');
      expect(got.readUInt32LE(4)).toBe(2); // ENOENT
      s.received.length = 0;

      await s.write(syncRequest('LIS2', '/sdcard'));
      got = await until(() => {
        const all = Buffer.concat(s.received);
        return all.length >= 76 && all.toString('latin1', all.length - 76, all.length - 72) === 'DONE' ? all : undefined;
      }, 'the listing');
      const names: string[] = [];
      for (let at = 0; got.toString('latin1', at, at + 4) === 'DNT2'; ) {
        const length = got.readUInt32LE(at + 72);
        names.push(got.toString('utf8', at + 76, at + 76 + length));
        at += 76 + length;
      }
      expect(names).toEqual(['.', '..', 'notes.txt']);
      s.received.length = 0;

      // SND2: the path, then mode and flags in a second request with the same id.
      const setup = Buffer.alloc(12);
      setup.write('SND2', 0, 'latin1');
      setup.writeUInt32LE(0o100600, 4);
      await s.write(Buffer.concat([syncRequest('SND2', '/sdcard/new/file.bin'), setup, syncRequest('DATA', 'abc'), syncRequest('DATA', 'def')]));
      const done = Buffer.alloc(8);
      done.write('DONE', 0, 'latin1');
      done.writeUInt32LE(1_700_000_123, 4);
      await s.write(done);
      got = await receivedAtLeast(s, 8);
      expect(got.toString('latin1', 0, 4)).toBe('OKAY');
      expect(backend.files.stat('/sdcard/new/file.bin')).toEqual({ name: 'file.bin', mode: 0o100666, size: 6, mtime: 1_700_000_123 });
      s.received.length = 0;

      const recv = Buffer.alloc(8);
      recv.write('RCV2', 0, 'latin1');
      await s.write(Buffer.concat([syncRequest('RCV2', '/sdcard/new/file.bin'), recv]));
      got = await receivedAtLeast(s, 8 + 6 + 8);
      expect(got.toString('latin1')).toBe(`DATA\x06\0\0\0abcdefDONE\0\0\0\0`);
      s.received.length = 0;

      await s.write(syncRequest('QUIT', ''));
      await s.closed;
    });

    it('fails a push larger than the limit with "No space left on device" and keeps nothing', async () => {
      const c = await online();
      const s = await c.stream('sync:');
      await s.write(syncRequest('SEND', '/sdcard/big.bin,33188'));
      for (let i = 0; i < 3; i++) await s.write(syncRequest('DATA', Buffer.alloc(60_000)));
      await s.write(syncRequest('DONE', ''));
      const all = await s.readAll();
      expect(all.toString('latin1', 0, 4)).toBe('FAIL');
      expect(all.toString('utf8', 8, 8 + all.readUInt32LE(4))).toBe('write failed: No space left on device');
      expect(backend.files.stat('/sdcard/big.bin')).toBeUndefined();
    });

    it('fails RECV of a directory and of a missing file as adbd does', async () => {
      const c = await online();
      const dir = await c.stream('sync:');
      await dir.write(syncRequest('RECV', '/sdcard'));
      const a = await dir.readAll();
      expect(a.toString('utf8', 8)).toBe('read failed: Is a directory');
      const missing = await c.stream('sync:');
      await missing.write(syncRequest('RECV', '/nope'));
      expect((await missing.readAll()).toString('utf8', 8)).toBe('open failed: No such file or directory');
    });

    it('rejects an over-long path and an unknown request', async () => {
      const c = await online();
      const long = await c.stream('sync:');
      await long.write(syncRequest('STAT', `/${'x'.repeat(1100)}`));
      expect((await long.readAll()).toString('utf8', 8)).toBe('path too long');
      const odd = await c.stream('sync:');
      await odd.write(syncRequest('ABCD', '/'));
      expect((await odd.readAll()).toString('utf8', 8)).toBe('unknown command 44434241');
    });
  });

  describe('limits', () => {
    let limited: Adbd;
    const aborted: ShellSession[] = [];
    beforeAll(async () => {
      limited = await startAdbd({
        backend: testBackend({
          extra: {
            flood: (s) => {
              s.signal.addEventListener('abort', () => aborted.push(s), { once: true });
              s.write(Buffer.alloc(4096, 1));
              s.write(Buffer.alloc(20_000, 2));
              return new Promise<number>(() => undefined);
            },
          },
        }),
        maxQueuedOutput: 10_000,
        maxStreams: 2,
        maxConnections: 3,
        handshakeTimeoutMs: 200,
      });
    });
    afterAll(async () => {
      await limited.close();
    });

    it('drops a connection that never says CNXN', async () => {
      const c = await connectWire(limited.port);
      clients.push(c);
      await c.ended;
    });

    it('cuts a stream whose unsent output passes the limit, and aborts its session', async () => {
      const c = await connectWire(limited.port);
      clients.push(c);
      await c.handshake({ maxPayload: 4096 });
      const s = await c.stream('shell,v2,raw:flood', { autoAck: false });
      await s.closed;
      await until(() => aborted[0], 'the aborted session');
      expect(Buffer.concat(s.received).length).toBeLessThanOrEqual(4096);
    });

    it('refuses streams past the per-connection limit, and connections past the server limit', async () => {
      const c = await connectWire(limited.port);
      clients.push(c);
      await c.handshake();
      await c.stream('shell,v2,raw:sleep 100');
      await c.stream('shell,v2,raw:sleep 100');
      expect(await c.open('shell,v2,raw:echo third')).toBeUndefined();

      await until(() => limited.connectionCount() === 1 || undefined, 'only this connection left');
      const extra = await Promise.all([connectWire(limited.port), connectWire(limited.port), connectWire(limited.port)]);
      clients.push(...extra);
      const outcomes = await Promise.all(
        extra.map((e) => Promise.race([e.handshake().then(() => 'online'), e.ended.then(() => 'dropped')])),
      );
      expect(outcomes.sort()).toEqual(['dropped', 'online', 'online']);
    });
  });
});

