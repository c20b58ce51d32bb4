import { connect, type Socket } from 'node:net';

/*
 * The floor of the adb server's host protocol, without Apex: one TCP connection per call (as the adb CLI
 * makes), `host:transport:SERIAL` then the device service, each request 4 hex digits of length + its text,
 * each answered OKAY (or FAIL + a length-prefixed message). No timeouts, no error translation, no parsing
 * beyond the framing: what any client must at least do.
 */

function request(service: string): Buffer {
  const body = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

/** Sends the two requests, checks both OKAYs, and resolves with every byte after them once the server closes. */
function call(port: number, serial: string, service: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let okays = 0;
    let pending = Buffer.alloc(0);
    socket.on('connect', () => socket.write(request(`host:transport:${serial}`)));
    socket.on('data', (data: Buffer) => {
      if (okays === 2) {
        chunks.push(data);
        return;
      }
      pending = Buffer.concat([pending, data]);
      while (okays < 2 && pending.length >= 4) {
        const status = pending.subarray(0, 4).toString('latin1');
        if (status !== 'OKAY') {
          socket.destroy();
          reject(new Error(`${service}: ${pending.toString('latin1')}`));
          return;
        }
        pending = pending.subarray(4);
        okays += 1;
        if (okays === 1) socket.write(request(service));
      }
      if (okays === 2 && pending.length) chunks.push(pending);
    });
    socket.on('error', reject);
    socket.on('close', () => (okays === 2 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${service}: closed before OKAY`))));
  });
}

/** Shell protocol packet id of the exit code (shell_protocol.h). */
const SHELL_EXIT = 3;

/** The exit code in a `shell,v2` stream (5-byte packet headers: id, little-endian length). */
function exitCode(stream: Buffer): number | undefined {
  for (let at = 0; at + 5 <= stream.length; ) {
    const length = stream.readUInt32LE(at + 1);
    if (stream[at] === SHELL_EXIT) return stream[at + 5];
    at += 5 + length;
  }
  return undefined;
}

export interface RawAdb {
  /** `shell,v2,raw:CMD`: the command through the shell protocol; fails unless it exits 0. */
  shell(command: string): Promise<Buffer>;
  /** `exec:CMD`: the command's raw bytes. */
  exec(command: string): Promise<Buffer>;
}

export function rawAdb(port: number, serial: string): RawAdb {
  return {
    async shell(command) {
      const stream = await call(port, serial, `shell,v2,raw:${command}`);
      const code = exitCode(stream);
      if (code !== 0) throw new Error(`${command} exited ${String(code)}`);
      return stream;
    },
    exec: (command) => call(port, serial, `exec:${command}`),
  };
}
