import { ApexError, echoName } from '@apex/errors';
import type { TypeTextRequest } from '@apex/port';
import { okText, shell, shellLine, type AdbContext } from '../adb-context';
import { parseKeyboardShown } from '../parse/dumpsys';
import { commandLine, KEY, typingCommands, untypableCharacters } from '../shell-words';

/**
 * Types with `input text` into whatever has focus. Only printable ASCII can be typed that way: `input text`
 * turns characters into key events through the virtual keyboard's key map, which has no keys for "é" or
 * emoji (Android then fails with a NullPointerException and types nothing). Such text is refused up front,
 * before anything is typed.
 */
export async function typeText(ctx: AdbContext, request: TypeTextRequest, signal: AbortSignal): Promise<void> {
  const untypable = untypableCharacters(request.text);
  if (untypable.length > 0) {
    throw new ApexError(
      'unsupported_operation',
      `Device ${ctx.deviceId} can only type plain ASCII letters, digits, punctuation, spaces, newlines and tabs; it cannot type ${untypable
        .slice(0, 5)
        .map((c) => `"${echoName(c)}"`)
        .join(', ')}. Nothing was typed.`,
      { hint: 'Type the text without accents or emoji, or tap the keys of the on-screen keyboard.' },
    );
  }
  const commands = typingCommands(request.text);
  if (request.submit) commands.push(['input', 'keyevent', String(KEY.enter)]);
  if (commands.length === 0) return;
  okText(await shellLine(ctx, commands.map(commandLine).join(' && '), signal));
}

/** Back closes the soft keyboard; without one shown nothing is pressed (Back would leave the screen). */
export async function hideKeyboard(ctx: AdbContext, signal: AbortSignal): Promise<void> {
  if (!(await keyboardShown(ctx, signal))) return;
  okText(await shell(ctx, ['input', 'keyevent', String(KEY.back)], signal));
}

export async function keyboardShown(ctx: AdbContext, signal: AbortSignal): Promise<boolean> {
  return parseKeyboardShown(okText(await shell(ctx, ['dumpsys', 'input_method'], signal)));
}
