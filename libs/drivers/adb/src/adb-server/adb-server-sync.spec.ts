import { createServer, type Server, type Socket } from 'node:net';
import { AdbServerClient, AdbServerFailure } from './adb-server-client';

/**
 * Pushes (`sync:` SEND, SYNC.TXT) and exec with stdin, against a hand-driven server that decodes what the client
 * sends: the smart-socket requests, then the sync packets (8-byte id + length headers) or the raw stdin bytes.
 */

interface Received {
  requests: string[];
  packets: Array<{ id: string; value: number; data?: Buffer }>;
  stdin: Buffer;
}

async function server(answer: (received: Received, socket: Socket) => void): Promise<{ server: Server; port: number; received: Received }> {
  const received: Received = { requests: [], packets: [], stdin: Buffer.alloc(0) };
  const srv = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (received.requests.length < 2) {
          if (buffer.length < 4) return;
          const length = parseInt(buffer.subarray(0, 4).toString('latin1'), 16);
          if (buffer.length < 4 + length) return;
          received.requests.push(buffer.subarray(4, 4 + length).toString('utf8'));
          buffer = buffer.subarray(4 + length);
          socket.write('OKAY');
          continue;
        }
        if (received.requests[1]?.startsWith('exec:')) {
          received.stdin = Buffer.concat([received.stdin, buffer]);
          buffer = Buffer.alloc(0);
          answer(received, socket);
          return;
        }
        if (buffer.length < 8) return;
        const id = buffer.toString('latin1', 0, 4);
        const value = buffer.readUInt32LE(4);
        const withData = id === 'SEND' || id === 'DATA';
        if (withData && buffer.length < 8 + value) return;
        received.packets.push({ id, value, ...(withData ? { data: Buffer.from(buffer.subarray(8, 8 + value)) } : {}) });
        buffer = buffer.subarray(withData ? 8 + value : 8);
        answer(received, socket);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  return { server: srv, port: typeof address === 'object' && address ? address.port : 0, received };
}

async function* chunks(...parts: Buffer[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield part;
}

const live = (): AbortSignal => AbortSignal.timeout(10_000);

describe('pushes and exec with stdin through the adb server protocol', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
  });

  it('sends SEND path,mode, the bytes in DATA packets of at most 64 KiB, and DONE with the time', async () => {
    const fake = await server((received, socket) => {
      if (received.packets[received.packets.length - 1]?.id === 'DONE') socket.write(Buffer.concat([Buffer.from('OKAY'), Buffer.alloc(4)]));
    });
    servers.push(fake.server);
    const client = new AdbServerClient({ host: '127.0.0.1', port: fake.port }, 3_000);
    const file = Buffer.alloc(150 * 1024, 9);
    await client.push('emulator-5554', '/sdcard/Pictures/a b.png', 0o100644, chunks(file.subarray(0, 1000), file.subarray(1000)), live());
    expect(fake.received.requests).toEqual(['host:transport:emulator-5554', 'sync:']);
    const [send, ...rest] = fake.received.packets;
    expect(send).toMatchObject({ id: 'SEND', data: Buffer.from(`/sdcard/Pictures/a b.png,${0o100644}`) });
    const data = rest.filter((p) => p.id === 'DATA');
    expect(data.every((p) => p.value <= 64 * 1024)).toBe(true);
    expect(Buffer.concat(data.map((p) => p.data ?? Buffer.alloc(0))).equals(file)).toBe(true);
    const done = rest.find((p) => p.id === 'DONE');
    expect(Math.abs((done?.value ?? 0) - Date.now() / 1000)).toBeLessThan(24 * 3600);
  });

  it('gives the device’s FAIL reason as a failure of the sync service', async () => {
    const fake = await server((received, socket) => {
      if (received.packets[received.packets.length - 1]?.id === 'DONE') {
        const reason = Buffer.from("couldn't create file: Is a directory");
        const header = Buffer.alloc(8);
        header.write('FAIL', 0, 'latin1');
        header.writeUInt32LE(reason.length, 4);
        socket.write(Buffer.concat([header, reason]));
      }
    });
    servers.push(fake.server);
    const client = new AdbServerClient({ host: '127.0.0.1', port: fake.port }, 3_000);
    await expect(client.push('s', '/sdcard/x', 0o100644, chunks(Buffer.from('x')), live())).rejects.toEqual(new AdbServerFailure('sync:', "couldn't create file: Is a directory"));
  });

  it('streams exec stdin, then reads the reply until the device closes', async () => {
    const apk = Buffer.alloc(300 * 1024, 3);
    const fake = await server((received, socket) => {
      if (received.stdin.length === apk.length) socket.end('Success\n');
    });
    servers.push(fake.server);
    const client = new AdbServerClient({ host: '127.0.0.1', port: fake.port }, 3_000);
    const reply = await client.execWithInput('s', `cmd package install -S ${apk.length}`, chunks(apk.subarray(0, 5), apk.subarray(5)), live());
    expect(reply.toString()).toBe('Success\n');
    expect(fake.received.requests[1]).toBe(`exec:cmd package install -S ${apk.length}`);
    expect(fake.received.stdin.equals(apk)).toBe(true);
  });
});
