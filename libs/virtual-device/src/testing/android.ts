import type { ShellHandler, ShellSession } from '../android/adbd/device-backend';
import { parseXml, walk, type XmlElement } from './xml';

export interface ShellResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** stdout as UTF-8. */
  text: string;
}

/** Runs one command line through a ShellHandler as the adbd would (`exec:`/`shell,v2,raw:`: raw bytes, no pty). */
export async function shellRun(shell: ShellHandler, command: string, stdinText = ''): Promise<ShellResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const controller = new AbortController();
  const session: ShellSession = {
    command,
    pty: false,
    write: (d) => out.push(Buffer.from(typeof d === 'string' ? Buffer.from(d, 'utf8') : d)),
    writeError: (d) => err.push(Buffer.from(typeof d === 'string' ? Buffer.from(d, 'utf8') : d)),
    stdin: (async function* () {
      if (stdinText) yield Buffer.from(stdinText, 'utf8');
    })(),
    signal: controller.signal,
  };
  const code = await shell(session);
  const stdout = Buffer.concat(out);
  return { code, stdout, stderr: Buffer.concat(err).toString('utf8'), text: stdout.toString('utf8') };
}

/** `[x1,y1][x2,y2]` → its centre in pixels. */
export function boundsCenter(bounds: string): { x: number; y: number } {
  const m = /^\[(\d+),(\d+)\]\[(\d+),(\d+)\]$/.exec(bounds);
  if (!m) throw new Error(`bad bounds ${bounds}`);
  const [x1, y1, x2, y2] = m.slice(1).map(Number);
  return { x: Math.floor((x1 + x2) / 2), y: Math.floor((y1 + y2) / 2) };
}

/** A `uiautomator dump` read back: its nodes, and finders for the specs. */
export class UiDump {
  readonly root: XmlElement;
  readonly nodes: XmlElement[];

  constructor(readonly xml: string) {
    this.root = parseXml(xml);
    this.nodes = [...walk(this.root)].filter((n) => n.tag === 'node');
  }

  find(match: (a: Record<string, string>) => boolean): XmlElement | undefined {
    return this.nodes.find((n) => match(n.attributes));
  }

  byText(text: string): XmlElement {
    const n = this.find((a) => a.text === text || a['content-desc'] === text);
    if (!n) throw new Error(`no node with text "${text}" in the dump`);
    return n;
  }

  texts(): string[] {
    return this.nodes.map((n) => n.attributes.text).filter((t) => t !== '');
  }
}

/** Dumps the screen over the shell (`uiautomator dump /dev/tty`) and parses it. */
export async function dumpUi(shell: ShellHandler): Promise<UiDump> {
  const r = await shellRun(shell, 'uiautomator dump /dev/tty');
  if (r.code !== 0) throw new Error(`dump failed: ${r.stderr}`);
  const trailer = 'UI hierchary dumped to: /dev/tty\n';
  if (!r.text.endsWith(trailer)) throw new Error('the dump does not end with its trailer line');
  return new UiDump(r.text.slice(0, -trailer.length));
}

/** Taps the centre of the node with this text (or content-desc) through `input tap`. */
export async function tapText(shell: ShellHandler, text: string): Promise<void> {
  const node = (await dumpUi(shell)).byText(text);
  const { x, y } = boundsCenter(node.attributes.bounds);
  const r = await shellRun(shell, `input tap ${x} ${y}`);
  if (r.code !== 0) throw new Error(`input tap failed: ${r.stderr}`);
}
