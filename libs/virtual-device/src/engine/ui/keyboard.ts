import type { ScreenEnv } from '../screen';
import type { Rect } from '../element';
import { drawGlyph } from '../render/glyphs';
import { drawText, fillRect, fillRoundRect } from '../render/paint';
import type { View } from '../view';
import type { TextInput } from './text-input';

const KEY_HEIGHT = 42;
const ROW_GAP = 12;
const PAD = 8;
const KEY_GAP = 6;
const SIDE = 3;

const LETTER_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const NUMBER_ROWS = ['1234567890', '-/:;()$&@"', ".,?!'"];

/** Height in points of the on-screen keyboard (including the space under it on phones without a home button). */
export function keyboardHeight(env: ScreenEnv): number {
  return PAD + 4 * KEY_HEIGHT + 3 * ROW_GAP + PAD + (env.bottom > 0 ? 46 : 0);
}

interface KeySpec {
  name: string;
  label: string;
  rect: Rect;
  special: boolean;
  press(): void;
}

/** The system keyboard for `input`: letters or numbers, shift, delete, space and a return key. */
export function keyboardWindow(env: ScreenEnv, input: TextInput, returnLabel = 'return'): View {
  const { theme } = env;
  const height = keyboardHeight(env);
  const top = env.height - height;
  const keyW = (env.width - 2 * SIDE - 9 * KEY_GAP) / 10;
  const rowY = (i: number): number => top + PAD + i * (KEY_HEIGHT + ROW_GAP);
  const keys: KeySpec[] = [];
  const rows = input.numbers ? NUMBER_ROWS : LETTER_ROWS;
  const typeChar = (ch: string) => () => {
    input.type(ch);
    input.shift = false;
  };
  const addRow = (chars: string, row: number, left: number, width: number): void => {
    [...chars].forEach((ch, i) => {
      const shown = input.shift ? ch.toUpperCase() : ch;
      keys.push({
        name: shown,
        label: shown,
        rect: { x: left + i * (width + KEY_GAP), y: rowY(row), width, height: KEY_HEIGHT },
        special: false,
        press: typeChar(shown),
      });
    });
  };
  addRow(rows[0], 0, SIDE, keyW);
  addRow(rows[1], 1, input.numbers ? SIDE : SIDE + (keyW + KEY_GAP) / 2, keyW);
  const wideW = keyW * 1.3;
  const third = rows[2];
  const thirdW = input.numbers ? (env.width - 2 * SIDE - 2 * wideW - 2 * 12 - (third.length - 1) * KEY_GAP) / third.length : keyW;
  const thirdLeft = (env.width - (third.length * thirdW + (third.length - 1) * KEY_GAP)) / 2;
  addRow(third, 2, thirdLeft, thirdW);
  if (!input.numbers) {
    keys.push({
      name: 'shift',
      label: 'shift',
      rect: { x: SIDE, y: rowY(2), width: wideW, height: KEY_HEIGHT },
      special: !input.shift,
      press: () => (input.shift = !input.shift),
    });
  }
  keys.push({
    name: 'delete',
    label: 'delete',
    rect: { x: env.width - SIDE - wideW, y: rowY(2), width: wideW, height: KEY_HEIGHT },
    special: true,
    press: () => input.type('\b'),
  });
  const moreW = keyW * 2 + KEY_GAP;
  const returnW = keyW * 2.6;
  keys.push({
    name: 'more',
    label: input.numbers ? 'ABC' : '123',
    rect: { x: SIDE, y: rowY(3), width: moreW, height: KEY_HEIGHT },
    special: true,
    press: () => {
      input.numbers = !input.numbers;
      input.shift = false;
    },
  });
  keys.push({
    name: 'space',
    label: 'space',
    rect: { x: SIDE + moreW + KEY_GAP, y: rowY(3), width: env.width - 2 * SIDE - moreW - returnW - 2 * KEY_GAP, height: KEY_HEIGHT },
    special: false,
    press: typeChar(' '),
  });
  keys.push({
    name: 'return',
    label: returnLabel,
    rect: { x: env.width - SIDE - returnW, y: rowY(3), width: returnW, height: KEY_HEIGHT },
    special: true,
    press: () => input.pressReturn(),
  });
  const kbRect = { x: 0, y: top, width: env.width, height };
  const keyViews: View[] = keys.map((k) => ({
    uid: `keyboard/key/${k.name}`,
    type: 'Key',
    label: k.name === 'more' ? (input.numbers ? 'letters' : 'more') : k.label,
    identifier: k.name === k.label ? undefined : k.name,
    rect: k.rect,
    onTap: k.press,
    draw: ({ ctx }) => {
      fillRoundRect(ctx, { ...k.rect, y: k.rect.y + 1 }, 5, 'rgba(0,0,0,0.3)');
      fillRoundRect(ctx, k.rect, 5, k.special ? theme.specialKey : theme.key);
      const cx = k.rect.x + k.rect.width / 2;
      const cy = k.rect.y + k.rect.height / 2;
      if (k.name === 'shift') drawShift(ctx, cx, cy, theme.label);
      else if (k.name === 'delete') drawGlyph(ctx, 'delete', cx, cy, 22, theme.label, 1.6);
      else if (k.name === 'space') drawText(ctx, 'space', cx, cy, { size: 16, color: theme.label, align: 'center' });
      else if (k.special) drawText(ctx, k.label, cx, cy, { size: 16, color: theme.label, align: 'center' });
      else drawText(ctx, k.label, cx, cy, { size: 22, color: theme.label, align: 'center' });
    },
  }));
  return {
    uid: 'keyboard/window',
    type: 'Window',
    rect: kbRect,
    opaque: true,
    children: [
      {
        uid: 'keyboard',
        type: 'Keyboard',
        rect: kbRect,
        opaque: true,
        draw: ({ ctx }) => fillRect(ctx, kbRect, theme.keyboardBackground),
        children: keyViews,
      },
    ],
  };
}

function drawShift(ctx: import('@napi-rs/canvas').SKRSContext2D, cx: number, cy: number, color: string): void {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.8;
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(cx, cy - 9);
  ctx.lineTo(cx + 9, cy + 1);
  ctx.lineTo(cx + 4, cy + 1);
  ctx.lineTo(cx + 4, cy + 8);
  ctx.lineTo(cx - 4, cy + 8);
  ctx.lineTo(cx - 4, cy + 1);
  ctx.lineTo(cx - 9, cy + 1);
  ctx.closePath();
  ctx.stroke();
  ctx.restore();
}
