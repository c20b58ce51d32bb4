import type { AndroidPhone } from '../../android-phone';
import { floatArg, intArg, type Command, type CommandIO } from '../command';
import { charOfKey, keyCodeOf, KEYCODES } from '../keycodes';

const USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are: 
      keyboard
      touchscreen
      touchpad
      mouse
      stylus
      dpad
      gamepad

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: touchscreen)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
`;
const SOURCES = new Set(['keyboard', 'touchscreen', 'touchpad', 'mouse', 'stylus', 'dpad', 'gamepad', 'trackball', 'joystick', 'touchnavigation', 'rotaryencoder']);
const DEFAULT_SWIPE_MS = 300;

/** Where a `motionevent DOWN` put the finger (pixels), per phone, until its UP. */
const fingerDown = new WeakMap<AndroidPhone, { x: number; y: number }>();

/**
 * `input`: touches, key events and text, in pixels as Android takes them. Bad arguments fail as Android's
 * InputShellCommand does: its IllegalArgumentException printed by the shell command runner, exit 255.
 */
export const input: Command = (argv, io) => {
  const args = argv.slice(1);
  if (args[0] !== undefined && SOURCES.has(args[0])) args.shift();
  if (args[0] === '-d') args.splice(0, 2);
  const [cmd, ...rest] = args;
  const phone = io.phone;
  const s = phone.scale;
  switch (cmd) {
    case 'tap': {
      const [x, y] = rest.map(floatArg);
      if (rest.length < 2 || Number.isNaN(x) || Number.isNaN(y)) return invalid(io, 'tap');
      phone.tap(x / s, y / s);
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const [x1, y1, x2, y2] = rest.slice(0, 4).map(floatArg);
      const given = rest[4] === undefined ? DEFAULT_SWIPE_MS : intArg(rest[4]);
      if (rest.length < 4 || [x1, y1, x2, y2, given].some(Number.isNaN)) return invalid(io, cmd);
      const duration = given < 0 ? DEFAULT_SWIPE_MS : given;
      if (cmd === 'swipe') phone.swipe(x1 / s, y1 / s, x2 / s, y2 / s, duration);
      else phone.dragAndDrop(x1 / s, y1 / s, x2 / s, y2 / s);
      return 0;
    }
    case 'text': {
      if (rest.length < 1) return missingArgument(io, 'text');
      return typeText(phone, decodeText(rest[0]), io);
    }
    case 'keyevent': {
      const codes: number[] = [];
      let longPress = false;
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i];
        if (a === '--longpress') longPress = true;
        else if (a === '--doubletap' || a === '--async') continue;
        else if (a === '--delay') i++;
        else {
          // KeyEvent.keyCodeFromString: an unknown name is KEYCODE_UNKNOWN (0), injected to no effect.
          codes.push(keyCodeOf(a) ?? KEYCODES.UNKNOWN);
        }
      }
      if (codes.length === 0) return missingArgument(io, 'keyevent');
      for (const code of codes) keyEvent(phone, code, longPress);
      return 0;
    }
    case 'motionevent': {
      const action = rest[0]?.toUpperCase();
      const [x, y] = rest.slice(1, 3).map(floatArg);
      if (action === 'CANCEL') {
        fingerDown.delete(phone);
        return 0;
      }
      if (!['DOWN', 'UP', 'MOVE'].includes(action ?? '')) return invalid(io, 'motionevent', `Unknown action: ${rest[0] ?? ''}`);
      if (Number.isNaN(x) || Number.isNaN(y)) return invalid(io, 'motionevent');
      if (action === 'DOWN') fingerDown.set(phone, { x, y });
      else if (action === 'UP') {
        const from = fingerDown.get(phone) ?? { x, y };
        fingerDown.delete(phone);
        phone.swipe(from.x / s, from.y / s, x / s, y / s, 100);
      }
      return 0;
    }
    case 'press':
    case 'roll':
    case 'keycombination':
      return 0;
    case undefined:
    case 'help':
      io.out(USAGE);
      return 0;
    default:
      io.err(`Unknown command: ${cmd}\n`);
      return 255;
  }
};

/** What the shell command runner prints for an IllegalArgumentException (the Java stack trace left out). */
function invalid(io: CommandIO, cmd: string, message = `Error: Invalid arguments for command: ${cmd}`): number {
  io.err(`Exception occurred while executing '${cmd}':\njava.lang.IllegalArgumentException: ${message}\n`);
  return 255;
}

function missingArgument(io: CommandIO, cmd: string): number {
  io.err(`Exception occurred while executing '${cmd}':\njava.lang.IllegalArgumentException: Argument expected after "${cmd}"\n`);
  return 255;
}

/** `input text`: "%s" stands for a space (Android's own escape); the rest is typed as it is. */
export function decodeText(text: string): string {
  return text.replace(/%s/g, ' ');
}

/**
 * Types as the virtual key character map can: printable ASCII. When a character has no key (é, emoji…), the
 * map returns no events and Android's `input text` fails with a NullPointerException, typing nothing.
 */
function typeText(phone: AndroidPhone, text: string, io: CommandIO): number {
  if (![...text].every((c) => (c >= ' ' && c <= '~') || c === '\n' || c === '\t')) {
    io.err("Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n");
    return 255;
  }
  phone.typeText(text);
  return 0;
}

/** One key press, as the phone's input dispatcher routes it. */
export function keyEvent(phone: AndroidPhone, code: number, longPress = false): void {
  switch (code) {
    case KEYCODES.HOME:
      phone.pressHome();
      return;
    case KEYCODES.BACK:
    case KEYCODES.ESCAPE:
      phone.pressBack();
      return;
    case KEYCODES.APP_SWITCH:
      phone.pressAppSwitch();
      return;
    case KEYCODES.POWER:
      if (!longPress) phone.pressPower();
      return;
    case KEYCODES.SLEEP:
      phone.setAwake(false);
      return;
    case KEYCODES.WAKEUP:
      phone.setAwake(true);
      return;
    case KEYCODES.ENTER:
      phone.pressEnter();
      return;
    case KEYCODES.DEL:
      phone.typeText('\b');
      return;
    case KEYCODES.MENU:
      phone.pressMenu();
      return;
    case KEYCODES.NOTIFICATION:
      phone.openShade(!phone.shadeShown());
      return;
    default: {
      const ch = charOfKey(code);
      if (ch !== undefined) phone.typeText(ch);
      // Volume, media, D-pad and the rest change nothing the virtual phone shows.
      phone.logcat.add(2000, 'D', 'InputDispatcher', `inject key ${code}`);
    }
  }
}
