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

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
`;
const SOURCES = new Set(['keyboard', 'touchscreen', 'touchpad', 'mouse', 'stylus', 'dpad', 'gamepad', 'trackball', 'joystick', 'touchnavigation', 'rotaryencoder']);
const DEFAULT_SWIPE_MS = 300;

/** `input`: touches, key events and text, in pixels as Android takes them. */
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
      if (rest.length !== 2 || Number.isNaN(x) || Number.isNaN(y)) return usage(io, `Error: Invalid arguments for command: tap`);
      phone.tap(x / s, y / s);
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const [x1, y1, x2, y2] = rest.slice(0, 4).map(floatArg);
      const duration = rest[4] === undefined ? DEFAULT_SWIPE_MS : intArg(rest[4]);
      if (rest.length < 4 || rest.length > 5 || [x1, y1, x2, y2, duration].some(Number.isNaN)) return usage(io, `Error: Invalid arguments for command: ${cmd}`);
      if (cmd === 'swipe') phone.swipe(x1 / s, y1 / s, x2 / s, y2 / s, duration);
      else phone.dragAndDrop(x1 / s, y1 / s, x2 / s, y2 / s);
      return 0;
    }
    case 'text': {
      if (rest.length < 1) return usage(io, 'Error: Invalid arguments for command: text');
      typeText(phone, decodeText(rest[0]));
      return 0;
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
          const code = keyCodeOf(a);
          if (code === undefined) {
            io.err(`Error: Unknown keycode: ${a}\n`);
            return 1;
          }
          codes.push(code);
        }
      }
      if (codes.length === 0) return usage(io, 'Error: Invalid arguments for command: keyevent');
      for (const code of codes) keyEvent(phone, code, longPress);
      return 0;
    }
    case 'press':
    case 'roll':
      return 0;
    default:
      return usage(io, cmd === undefined ? '' : `Error: Unknown command: ${cmd}`);
  }
};

function usage(io: CommandIO, error: string): number {
  if (error) io.err(`${error}\n`);
  io.err(USAGE);
  return 1;
}

/** `input text`: "%s" stands for a space (Android's own escape); the rest is typed as it is. */
export function decodeText(text: string): string {
  return text.replace(/%s/g, ' ');
}

/**
 * Types as the virtual keyboard's key map can: printable ASCII only. Characters the key map cannot produce are
 * dropped, as `input text` drops them on a real phone (it injects key events, and there are none for them).
 */
function typeText(phone: AndroidPhone, text: string): void {
  const typable = [...text].filter((c) => c >= ' ' && c <= '~').join('');
  if (typable !== text) phone.logcat.add(2000, 'W', 'Input', 'some characters have no key on the virtual keyboard and were not typed');
  if (typable !== '') phone.typeText(typable);
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
