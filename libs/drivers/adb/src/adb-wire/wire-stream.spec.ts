import { createServer, type Server, type Socket } from 'node:net';
import { DirectClient } from './direct-client';
import { A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_WRTE, encodePacket, PacketDecoder, type Packet } from './packet';

/*
 * The host's writes on a direct stream against a hand-driven adbd (a TCP server decoding packets): one WRTE at a
 * time, the next only after the device's OKAY (protocol.txt: a stream has one write in flight), each at most the
 * payload size the device announced; and a push's sync requests framed as SYNC.TXT says.
 */

const DEVICE_MAX_PAYLOAD = 4096;
const REMOTE_ID = 7;

interface Recorded {
  service?: string;
  writes: Buffer[];
  /** WRTEs that arrived while an earlier one was still unacknowledged. */
  overlapping: number;
}

/** A phone that answers CNXN, accepts one OPEN, acknowledges each WRTE on the next turn, and replies via `reply`. */
async function handDrivenAdbd(reply: (received: Buffer) => Buffer | undefined): Promise<{ server: Server; port: number; recorded: Recorded }> {
  const recorded: Recorded = { writes: [], overlapping: 0 };
  const server = createServer((socket: Socket) => {
    const decoder = new PacketDecoder(() => 1024 * 1024);
    const send = (p: Packet): void => void socket.write(encodePacket(p, false));
    let hostId = 0;
    let unacknowledged = false;
    socket.on('data', (data: Buffer) => {
      for (const p of decoder.push(data)) {
        if (p.command === A_CNXN) send({ command: A_CNXN, arg0: A_VERSION, arg1: DEVICE_MAX_PAYLOAD, payload: Buffer.from('device::features=shell_v2,cmd') });
        if (p.command === A_OPEN) {
          hostId = p.arg0;
          recorded.service = p.payload.toString('utf8').replace(/\0$/, '');
          send({ command: A_OKAY, arg0: REMOTE_ID, arg1: hostId, payload: Buffer.alloc(0) });
        }
        if (p.command === A_WRTE && p.arg1 === REMOTE_ID) {
          if (unacknowledged) recorded.overlapping++;
          unacknowledged = true;
          recorded.writes.push(p.payload);
          setImmediate(() => {
            unacknowledged = false;
            send({ command: A_OKAY, arg0: REMOTE_ID, arg1: hostId, payload: Buffer.alloc(0) });
            const answer = reply(Buffer.concat(recorded.writes));
            if (answer) {
              send({ command: A_WRTE, arg0: REMOTE_ID, arg1: hostId, payload: answer });
              send({ command: A_CLSE, arg0: REMOTE_ID, arg1: hostId, payload: Buffer.alloc(0) });
            }
          });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, recorded };
}

async function* chunks(...parts: Buffer[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

describe('direct stream writes', () => {
  const servers: Server[] = [];
  const clients: DirectClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const s of servers.splice(0)) s.close();
  });

  it('exec with stdin: WRTEs no larger than the device’s payload, one in flight at a time, then the reply', async () => {
    const input = Buffer.alloc(3 * DEVICE_MAX_PAYLOAD + 100);
    for (let i = 0; i < input.length; i++) input[i] = i % 251;
    const adbd = await handDrivenAdbd((received) => (received.length === input.length ? Buffer.from('Success\n') : undefined));
    servers.push(adbd.server);
    const client = new DirectClient({ host: '127.0.0.1', port: adbd.port, connectTimeoutMs: 5_000 });
    clients.push(client);
    const reply = await client.execWithInput('cmd package install -S 12388', chunks(input.subarray(0, 5000), input.subarray(5000)), AbortSignal.timeout(10_000));
    expect(reply.toString()).toBe('Success\n');
    expect(adbd.recorded.service).toBe('exec:cmd package install -S 12388');
    expect(Buffer.concat(adbd.recorded.writes).equals(input)).toBe(true);
    expect(Math.max(...adbd.recorded.writes.map((w) => w.length))).toBe(DEVICE_MAX_PAYLOAD);
    expect(adbd.recorded.writes.length).toBeGreaterThan(3);
    expect(adbd.recorded.overlapping).toBe(0);
  });

  it('push: SEND path,mode, DATA, DONE written on the sync stream; the device’s FAIL carries its reason', async () => {
    const fail = Buffer.from('FAIL\x00\x00\x00\x00secure mode', 'latin1');
    fail.writeUInt32LE('secure mode'.length, 4);
    const data = Buffer.from('hello phone');
    // DONE is the last request: answer once it has arrived.
    const adbd = await handDrivenAdbd((received) => (received.includes(Buffer.from('DONE')) ? fail : undefined));
    servers.push(adbd.server);
    const client = new DirectClient({ host: '127.0.0.1', port: adbd.port, connectTimeoutMs: 5_000 });
    clients.push(client);
    await expect(client.push('/sdcard/a.txt', 0o644, chunks(data), AbortSignal.timeout(10_000))).rejects.toThrow('secure mode');
    expect(adbd.recorded.service).toBe('sync:');
    const sent = Buffer.concat(adbd.recorded.writes);
    const target = Buffer.from(`/sdcard/a.txt,${0o644}`);
    expect(sent.toString('latin1', 0, 4)).toBe('SEND');
    expect(sent.readUInt32LE(4)).toBe(target.length);
    expect(sent.subarray(8, 8 + target.length).equals(target)).toBe(true);
    const at = 8 + target.length;
    expect(sent.toString('latin1', at, at + 4)).toBe('DATA');
    expect(sent.readUInt32LE(at + 4)).toBe(data.length);
    expect(sent.subarray(at + 8, at + 8 + data.length).equals(data)).toBe(true);
    expect(sent.toString('latin1', at + 8 + data.length, at + 12 + data.length)).toBe('DONE');
    expect(adbd.recorded.overlapping).toBe(0);
  });
});
