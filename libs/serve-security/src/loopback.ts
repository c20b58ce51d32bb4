import { isIP } from 'node:net';

/**
 * Loopback names and addresses: localhost and *.localhost, 127.0.0.0/8, ::1 and IPv4-mapped 127.x
 * (brackets and one trailing dot allowed, as in URLs and Host headers). Every request of every server asks,
 * so it is plain string work: node's BlockList makes a native address object per check (~25 µs a request
 * here when run between other work, as requests are).
 */
export function isLoopbackHost(host: string): boolean {
  let bare = host.toLowerCase();
  if (bare.startsWith('[') && bare.endsWith(']')) bare = bare.slice(1, -1);
  if (bare.endsWith('.')) bare = bare.slice(0, -1);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  switch (isIP(bare)) {
    case 4:
      return bare.startsWith('127.');
    case 6: {
      const words = ipv6Words(bare);
      const zeros = (count: number) => words.slice(0, count).every((word) => word === 0);
      return (zeros(7) && words[7] === 1) || (zeros(5) && words[5] === 0xffff && (words[6] as number) >> 8 === 127);
    }
    default:
      return false;
  }
}

/** The eight 16-bit words of an address `isIP` calls IPv6: `::` expanded, a dotted IPv4 tail read as two words. */
function ipv6Words(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  if (rest === undefined) return words(head);
  const [before, after] = [words(head), words(rest)];
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** A `Host` header's name without the port; undefined unless it is a plain name, an IPv4 or a bracketed IPv6. */
export function hostnameOfHostHeader(header: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::\d{1,5})?$/i.exec(header);
  return match?.[1];
}
