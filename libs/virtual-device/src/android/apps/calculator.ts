import { drawText, fillRoundRect } from '../../engine/render/paint';
import type { AndroidView } from '../android-view';
import { appWindow, contentRect } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const CALCULATOR_PACKAGE = 'com.google.android.calculator';
const CALCULATOR_ACTIVITY = 'com.android.calculator2.Calculator';

const KEYS: { key: string; id: string; desc: string }[][] = [
  [
    { key: 'AC', id: 'clr', desc: 'clear' },
    { key: '(', id: 'parens', desc: 'parentheses' },
    { key: '%', id: 'op_pct', desc: 'percent' },
    { key: '÷', id: 'op_div', desc: 'divide' },
  ],
  [
    { key: '7', id: 'digit_7', desc: '7' },
    { key: '8', id: 'digit_8', desc: '8' },
    { key: '9', id: 'digit_9', desc: '9' },
    { key: '×', id: 'op_mul', desc: 'multiply' },
  ],
  [
    { key: '4', id: 'digit_4', desc: '4' },
    { key: '5', id: 'digit_5', desc: '5' },
    { key: '6', id: 'digit_6', desc: '6' },
    { key: '−', id: 'op_sub', desc: 'minus' },
  ],
  [
    { key: '1', id: 'digit_1', desc: '1' },
    { key: '2', id: 'digit_2', desc: '2' },
    { key: '3', id: 'digit_3', desc: '3' },
    { key: '+', id: 'op_add', desc: 'plus' },
  ],
  [
    { key: '0', id: 'digit_0', desc: '0' },
    { key: '.', id: 'dec_point', desc: 'point' },
    { key: '⌫', id: 'del', desc: 'backspace' },
    { key: '=', id: 'eq', desc: 'equals' },
  ],
];

/** Evaluates "12+3×4" left to right with × and ÷ first; null when it is not a complete expression. */
export function evaluate(expression: string): string | null {
  const tokens = expression.match(/\d+(?:\.\d+)?|[+−×÷]/g);
  if (!tokens || tokens.join('') !== expression || /[+−×÷]$/.test(expression)) return null;
  const nums: number[] = [];
  const ops: string[] = [];
  for (const t of tokens) {
    if (/[+−×÷]/.test(t)) ops.push(t);
    else {
      let n = Number(t);
      const op = ops[ops.length - 1];
      if (op === '×' || op === '÷') {
        ops.pop();
        const a = nums.pop() ?? 0;
        n = op === '×' ? a * n : a / n;
      }
      nums.push(n);
    }
  }
  let result = nums[0] ?? 0;
  ops.forEach((op, i) => (result = op === '+' ? result + nums[i + 1] : result - nums[i + 1]));
  if (!Number.isFinite(result)) return "Can't divide by 0";
  return String(Math.round(result * 1e10) / 1e10);
}

class CalculatorInstance implements AndroidAppInstance {
  private expression = '';
  private result = '';

  private press(key: string): void {
    if (key === 'AC') {
      this.expression = '';
      this.result = '';
    } else if (key === '⌫') this.expression = this.expression.slice(0, -1);
    else if (key === '=') {
      const r = evaluate(this.expression);
      if (r !== null) {
        this.expression = r;
        this.result = '';
      }
    } else if (key === '(' || key === '%') return;
    else {
      this.expression += key;
      this.result = evaluate(this.expression) ?? '';
    }
  }

  window(env: AndroidEnv): AndroidView {
    const { theme } = env;
    const content = contentRect(env);
    const padH = Math.min(content.height * 0.6, 5 * 88);
    const displayRect = { x: 0, y: content.y, width: env.width, height: content.height - padH };
    const keyW = (env.width - 16 * 2 - 12 * 3) / 4;
    const keyH = (padH - 16 - 12 * 4) / 5;
    const children: AndroidView[] = [
      {
        uid: 'calculator/formula',
        type: 'StaticText',
        resourceId: `${CALCULATOR_PACKAGE}:id/formula`,
        text: this.expression,
        label: this.expression,
        rect: { x: 16, y: displayRect.y + displayRect.height - 140, width: env.width - 32, height: 72 },
        draw: ({ ctx }) => drawText(ctx, this.expression, env.width - 24, displayRect.y + displayRect.height - 104, { size: 48, color: theme.label, align: 'right' }),
      },
      {
        uid: 'calculator/result',
        type: 'StaticText',
        resourceId: `${CALCULATOR_PACKAGE}:id/result_preview`,
        text: this.result,
        label: this.result,
        rect: { x: 16, y: displayRect.y + displayRect.height - 64, width: env.width - 32, height: 48 },
        draw: ({ ctx }) => drawText(ctx, this.result, env.width - 24, displayRect.y + displayRect.height - 40, { size: 28, color: theme.secondaryLabel, align: 'right' }),
      },
    ];
    KEYS.forEach((row, ri) =>
      row.forEach((k, ci) => {
        const r = { x: 16 + ci * (keyW + 12), y: displayRect.y + displayRect.height + ri * (keyH + 12), width: keyW, height: keyH };
        const op = ci === 3 || ri === 0;
        children.push({
          uid: `calculator/key/${k.id}`,
          type: 'Button',
          resourceId: `${CALCULATOR_PACKAGE}:id/${k.id}`,
          text: /\d|\./.test(k.key) ? k.key : '',
          contentDesc: /\d|\./.test(k.key) ? undefined : k.desc,
          label: k.key,
          rect: r,
          onTap: () => this.press(k.key),
          draw: ({ ctx }) => {
            fillRoundRect(ctx, r, Math.min(r.height, r.width) / 2, k.key === '=' ? theme.tint : op ? theme.specialKey : theme.fieldBackground);
            drawText(ctx, k.key, r.x + r.width / 2, r.y + r.height / 2, { size: 28, color: k.key === '=' ? '#ffffff' : theme.label, align: 'center' });
          },
        });
      }),
    );
    return appWindow(env, CALCULATOR_PACKAGE, children);
  }

  focusedInput() {
    return null;
  }

  back(): boolean {
    return false;
  }

  activity(): string {
    return CALCULATOR_ACTIVITY;
  }

  reset(): void {
    this.expression = '';
    this.result = '';
  }
}

export const calculatorApp: AndroidAppDefinition = {
  pkg: CALCULATOR_PACKAGE,
  label: 'Calculator',
  launcherActivity: CALCULATOR_ACTIVITY,
  icon: { background: '#5f6368', foreground: '#ffffff', letter: '=' },
  versionName: '8.4',
  create: () => new CalculatorInstance(),
};
