import type { ShellHandler, ShellSession } from './device-backend';
import type { DeviceStream } from './device-stream';
import { encodeShellPackets, SHELL_ID, ShellPacketDecoder } from './shell-protocol';
import { ChunkQueue } from './stream-input';

/** How a `shell…:`/`exec:` service runs its command (adbd `daemon/services.cpp` ShellService). */
export interface ShellSpec {
  command: string;
  /** PTY (stdout and stderr merged by the terminal) or raw. */
  pty: boolean;
  /** Shell protocol (`v2`): separate stdout/stderr, stdin close, window size, exit code. */
  protocol: boolean;
}

/**
 * `shell[,arg,…]:[command]` and `exec:command`. As in adbd: without the shell protocol there is always a
 * terminal (a raw-mode PTY for a command), with it the type is PTY for an interactive shell and raw for a
 * command unless a `raw`/`pty` argument says otherwise; `TERM=…` and unknown arguments are accepted and ignored.
 */
export function parseShellService(name: string): ShellSpec | undefined {
  if (name.startsWith('exec:')) return { command: name.slice('exec:'.length), pty: false, protocol: false };
  if (!name.startsWith('shell')) return undefined;
  const rest = name.slice('shell'.length);
  const colon = rest.indexOf(':');
  if (colon < 0 || (colon > 0 && !rest.startsWith(','))) return undefined;
  const command = rest.slice(colon + 1);
  let pty = command.length === 0;
  let protocol = false;
  for (const arg of rest.slice(0, colon).split(',')) {
    if (arg === 'raw') pty = false;
    else if (arg === 'pty') pty = true;
    else if (arg === 'v2') protocol = true;
  }
  return { command, pty: protocol ? pty : true, protocol } satisfies ShellSpec;
}

const toBytes = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

/** Runs the backend's handler for one shell stream until it resolves or the host goes away. */
export function runShell(stream: DeviceStream, spec: ShellSpec, handler: ShellHandler, maxPayload: number): void {
  const stdin = new ChunkQueue((n) => stream.consumed(n));
  stream.signal.addEventListener('abort', () => stdin.end(), { once: true });

  let write: (data: Uint8Array) => void;
  let writeError: (data: Uint8Array) => void;
  if (spec.protocol) {
    const packets = (id: number) => (data: Uint8Array) => {
      if (data.length === 0) return;
      for (const p of encodeShellPackets(id, data, maxPayload)) stream.write(p);
    };
    write = packets(SHELL_ID.stdout);
    // A terminal has one output: stderr arrives on stdout (shell_service.cpp's table).
    writeError = spec.pty ? write : packets(SHELL_ID.stderr);
    let forStdin = 0;
    const decoder = new ShellPacketDecoder({
      stdin: (data) => {
        forStdin += data.length;
        stdin.push(data);
      },
      closeStdin: () => {
        // adbd can close stdin only for a raw subprocess; a PTY stays open.
        if (!spec.pty) stdin.end();
      },
      windowSize: () => undefined, // nothing to resize: the backend has no terminal
    });
    stream.onData = (chunk) => {
      forStdin = 0;
      decoder.push(chunk);
      // Headers and control packets are used up at once; stdin bytes when the command reads them.
      stream.consumed(chunk.length - forStdin);
    };
  } else {
    write = (data) => stream.write(data);
    writeError = write;
    stream.onData = (chunk) => stdin.push(chunk);
  }

  const session: ShellSession = {
    command: spec.command,
    pty: spec.pty,
    write: (data) => write(toBytes(data)),
    writeError: (data) => writeError(toBytes(data)),
    stdin,
    signal: stream.signal,
  };

  void Promise.resolve()
    .then(() => handler(session))
    .then(
      (code) => (Number.isInteger(code) ? code : 1),
      (error: unknown) => {
        // Like adbd's ReportError when a subprocess cannot start.
        writeError(toBytes(`error: ${error instanceof Error ? error.message : 'command failed'}\n`));
        return 126;
      },
    )
    .then((code) => {
      if (stream.isClosed) return;
      if (spec.protocol) stream.write(encodeShellPackets(SHELL_ID.exit, Uint8Array.of(code & 0xff), maxPayload)[0]);
      stream.end();
    });
}
