import { parseShellService } from './shell-service';
import { encodeShellPackets, ShellPacketDecoder } from './shell-protocol';
import { parseTcpService } from './tcp-service';

describe('service names', () => {
  it.each([
    ['shell:ls -l', { command: 'ls -l', pty: true, protocol: false }],
    ['shell:', { command: '', pty: true, protocol: false }],
    ['shell,raw:ls', { command: 'ls', pty: true, protocol: false }],
    ['shell,v2:ls', { command: 'ls', pty: false, protocol: true }],
    ['shell,v2:', { command: '', pty: true, protocol: true }],
    ['shell,v2,TERM=xterm-256color,pty:ls', { command: 'ls', pty: true, protocol: true }],
    ['shell,v2,raw:', { command: '', pty: false, protocol: true }],
    ['shell,v2,future-arg:echo a:b', { command: 'echo a:b', pty: false, protocol: true }],
    ['exec:screencap -p', { command: 'screencap -p', pty: false, protocol: false }],
  ])('%s', (name, spec) => {
    expect(parseShellService(name)).toEqual(spec);
  });

  it.each(['shellx:ls', 'shell', 'sync:', 'exe:ls'])('%s is not a shell', (name) => {
    expect(parseShellService(name)).toBeUndefined();
  });

  it.each([
    ['tcp:8080', 8080],
    ['tcp:localhost:8080', 8080],
    ['tcp:127.0.0.1:9', 9],
    ['tcp:example.com:80', null],
    ['tcp:0', null],
    ['tcp:70000', null],
    ['tcp:abc', null],
    ['local:foo', undefined],
  ])('%s → %s', (name, port) => {
    expect(parseTcpService(name)).toBe(port);
  });
});

describe('shell protocol packets', () => {
  it('splits data into packets no larger than the max and decodes them byte by byte', () => {
    const data = Buffer.from('x'.repeat(25));
    const packets = encodeShellPackets(0, data, 15);
    expect(packets.map((p) => p.length)).toEqual([15, 15, 10]);
    const stdin: Buffer[] = [];
    const events: string[] = [];
    const decoder = new ShellPacketDecoder({
      stdin: (d) => stdin.push(Buffer.from(d)),
      closeStdin: () => events.push('close'),
      windowSize: (text) => events.push(text),
    });
    const wire = Buffer.concat([...packets, ...encodeShellPackets(5, Buffer.from('24x80,0x0'), 100), ...encodeShellPackets(4, Buffer.alloc(0), 100), ...encodeShellPackets(9, Buffer.from('??'), 100)]);
    for (const byte of wire) decoder.push(Buffer.of(byte));
    expect(Buffer.concat(stdin).equals(data)).toBe(true);
    expect(events).toEqual(['24x80,0x0', 'close']);
  });
});
