import { createServer, type Server, type Socket } from 'node:net';
import { AdbServerClient, AdbServerFailure } from './adb-server-client';
import { AdbTransportError } from './socket-reader';

/**
 * The smart-socket client against a hand-driven TCP server: framing (4 hex digits + service), OKAY/FAIL,
 * shell-protocol packets split anywhere, early ends and aborts. The real adb server is in the integration specs.
 */

type Script = (socket: Socket, requests: string[]) => void;

/** A server that reads framed requests and lets the script answer; records what it received. */
async function fakeServer(script: Script): Promise<{ server: Server; port: number; closed: Promise<void>[] }> {
  const closed: Promise<void>[] = [];
  const server = createServer((socket) => {
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    let buffer = Buffer.alloc(0);
    const requests: string[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const length = parseInt(buffer.subarray(0, 4).toString('latin1'), 16);
        if (buffer.length < 4 + length) return;
        requests.push(buffer.subarray(4, 4 + length).toString('utf8'));
        buffer = buffer.subarray(4 + length);
        script(socket, requests);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, closed };
}

function packet(id: number, data: Buffer | string): Buffer {
  const body = Buffer.from(data);
  const header = Buffer.alloc(5);
  header[0] = id;
  header.writeUInt32LE(body.length, 1);
  return Buffer.concat([header, body]);
}

/** Writes the bytes one at a time, each in its own TCP segment as far as Node allows. */
async function trickle(socket: Socket, bytes: Buffer): Promise<void> {
  for (const byte of bytes) {
    socket.write(Buffer.from([byte]));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const live = (): AbortSignal => AbortSignal.timeout(10_000);

describe('the adb server client', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });
  const start = async (script: Script) => {
    const fake = await fakeServer(script);
    servers.push(fake.server);
    return { ...fake, client: new AdbServerClient({ host: '127.0.0.1', port: fake.port }, 3_000) };
  };

  it('frames requests, switches to the device, and reassembles shell packets split anywhere', async () => {
    let seen: string[] = [];
    const { client } = await start((socket, requests) => {
      seen = [...requests];
      socket.write('OKAY');
      if (requests.length === 2) {
        void trickle(socket, Buffer.concat([packet(1, 'out é\n'), packet(2, 'err\n'), packet(1, 'more'), packet(3, Buffer.from([42]))])).then(() => socket.end());
      }
    });
    const result = await client.shell('emulator-5554', "echo 'x y'", live());
    expect(seen).toEqual(['host:transport:emulator-5554', "shell,v2,raw:echo 'x y'"]);
    expect(result).toEqual({ stdout: Buffer.from('out é\nmore'), stderr: Buffer.from('err\n'), exitCode: 42 });
  });

  it('reads exec output to its end as raw bytes', async () => {
    const blob = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i & 0xff));
    const { client } = await start((socket, requests) => {
      socket.write('OKAY');
      if (requests.length === 2) socket.end(blob);
    });
    expect((await client.exec('s', 'screencap -p', live())).equals(blob)).toBe(true);
  });

  it('reads exec output line by line as it arrives; a runaway line is cut at the bound, the rest of it skipped', async () => {
    const { client } = await start((socket, requests) => {
      socket.write('OKAY');
      if (requests.length === 2) {
        void trickle(socket, Buffer.from('first é\r\nsec')).then(() => socket.end(Buffer.concat([Buffer.from('ond\n'), Buffer.alloc(50_000, 0x61), Buffer.from('\nlast')])));
      }
    });
    const lines: string[] = [];
    for await (const line of client.execLines('s', 'logcat -d', live(), 1_000)) lines.push(line);
    expect(lines).toEqual(['first é', 'second', 'a'.repeat(1_000), 'last']);
  });

  it('a line stream that never ends holds one bounded line at a time, and its reader’s abort ends it and the connection', async () => {
    let written = 0;
    let connection: Socket | undefined;
    const { client, closed } = await start((socket, requests) => {
      socket.write('OKAY');
      if (requests.length !== 2) return;
      connection = socket;
      const flood = () => {
        while (!socket.destroyed && socket.write(`line ${written++} ${'x'.repeat(100)}\n`));
        if (!socket.destroyed) socket.once('drain', flood);
      };
      flood();
    });
    const controller = new AbortController();
    let read = 0;
    const reading = (async () => {
      for await (const line of client.execLines('s', 'logcat', controller.signal, 200)) {
        expect(line.length).toBeLessThanOrEqual(200);
        if (++read === 20_000) controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ kind: 'aborted' });
    expect(read).toBe(20_000);
    await Promise.all(closed);
    expect(connection?.destroyed).toBe(true);
  });

  it('gives the server’s FAIL text, a host query’s answer, and refuses a reply that is not OKAY or FAIL', async () => {
    const { client } = await start((socket, requests) => {
      const last = requests[requests.length - 1] ?? '';
      if (last.startsWith('host:transport:')) socket.write("FAIL0020device 'emulator-5554' not found");
      else if (last === 'host:version') socket.write('OKAY00040029');
      else socket.write('WHAT');
    });
    await expect(client.shell('emulator-5554', 'true', live())).rejects.toEqual(new AdbServerFailure('host:transport:emulator-5554', "device 'emulator-5554' not found"));
    expect(await client.hostQuery('host:version', live())).toBe('0029');
    await expect(client.hostQuery('host:other', live())).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('a reply cut short is closed; an abort ends the call at once and closes the connection', async () => {
    let hangReached: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (hangReached = resolve));
    const { client, closed } = await start((socket, requests) => {
      socket.write('OKAY');
      if (requests.length === 2 && requests[1]?.includes('cut')) socket.end(packet(1, 'partial').subarray(0, 7));
      else if (requests.length === 2) hangReached(); // and never answer (a hanging command)
    });
    await expect(client.shell('s', 'cut', live())).rejects.toMatchObject({ kind: 'closed' });
    const controller = new AbortController();
    const pending = client.shell('s', 'hang', controller.signal);
    await hanging;
    controller.abort();
    await expect(pending).rejects.toEqual(new AdbTransportError('aborted', 'the call was cancelled'));
    await Promise.all(closed);
  });

  it('nothing listening is refused', async () => {
    const { server, port } = await fakeServer(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    await expect(new AdbServerClient({ host: '127.0.0.1', port }, 3_000).hostQuery('host:version', live())).rejects.toMatchObject({ kind: 'refused' });
  });
});
