import { uiautomatorXml } from '../../ui-dump';
import type { Command, CommandIO } from '../command';
import { writeFileTo } from './posix';

const DEFAULT_DUMP = '/sdcard/window_dump.xml';

/** The XML `uiautomator dump` writes for what is on screen now. */
export function currentDump(io: CommandIO): string {
  const phone = io.phone;
  return uiautomatorXml(phone.activeWindow(), phone.rotation(), phone.scale, { x: 0, y: 0, ...phone.screenSize() });
}

/** `uiautomator dump [--compressed] [file]` (file `/dev/tty`: to stdout). */
export const uiautomator: Command = (argv, io) => {
  if (argv[1] !== 'dump') {
    io.err('Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\ndump: creates an XML dump of current UI hierarchy\n');
    return argv[1] === 'help' ? 0 : 1;
  }
  let file = DEFAULT_DUMP;
  for (const a of argv.slice(2)) if (!a.startsWith('-')) file = a;
  const xml = currentDump(io);
  if (file === '/dev/tty' || file === '/dev/stdout') io.out(xml);
  else if (!writeFileTo(io, file, Buffer.from(xml, 'utf8'))) {
    io.err(`ERROR: could not write ${file}\n`);
    return 1;
  }
  io.out(`UI hierchary dumped to: ${file}\n`);
  return 0;
};

/** `screencap [-p] [-d display-id] [FILENAME]`: PNG with -p or a .png file; else the raw RGBA frame with its header. */
export const screencap: Command = (argv, io) => {
  let png = false;
  let file: string | undefined;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-p') png = true;
    else if (a === '-d') i++;
    else if (a === '-h') {
      io.err('usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n   -d: specify the display ID to capture.\nIf FILENAME ends with .png it will be saved as a png.\nIf FILENAME is not given, the results will be printed to stdout.\n');
      return 0;
    } else if (!a.startsWith('-')) file = a;
  }
  if (file?.endsWith('.png')) png = true;
  const bytes = png ? io.phone.renderPng() : rawFrame(io);
  if (file === undefined) io.out(bytes);
  else if (!writeFileTo(io, file, bytes)) {
    io.err(`Error opening file: ${file} (Permission denied)\n`);
    return 1;
  }
  return 0;
};

/** Width, height, pixel format (1 = RGBA_8888) and dataspace (sRGB), then the pixels. */
function rawFrame(io: CommandIO): Buffer {
  const { rgba, width, height } = io.phone.renderPixels();
  const header = Buffer.alloc(16);
  header.writeUInt32LE(width, 0);
  header.writeUInt32LE(height, 4);
  header.writeUInt32LE(1, 8);
  header.writeUInt32LE(0x8810000, 12);
  return Buffer.concat([header, rgba]);
}

/** `wm size|density` (reading only; overrides are not supported), `wm dismiss-keyguard`. */
export const wm: Command = (argv, io) => {
  const { profile } = io.phone;
  if (argv[1] === 'size' && argv.length === 2) {
    io.out(`Physical size: ${profile.widthPx}x${profile.heightPx}\n`);
    return 0;
  }
  if (argv[1] === 'density' && argv.length === 2) {
    io.out(`Physical density: ${profile.density}\n`);
    return 0;
  }
  if (argv[1] === 'dismiss-keyguard') {
    io.phone.dismissKeyguard();
    return 0;
  }
  if (argv[1] === 'size' || argv[1] === 'density') {
    io.err(`Error: the virtual phone cannot override its ${argv[1]}\n`);
    return 1;
  }
  io.err(`Unknown command: ${argv[1] ?? ''}\n`);
  return 255;
};
