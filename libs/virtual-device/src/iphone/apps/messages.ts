import type { AppDefinition, AppInstance, Env } from './app';
import { drawText, fillRect, fillRoundRect, hline, wrapText } from '../../engine/render/paint';
import { measure, measureContext } from '../../engine/render/measure';
import { keyboardHeight, keyboardWindow } from '../../engine/ui/keyboard';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import { ScrollState } from '../../engine/ui/scroll';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import type { View } from '../../engine/view';

export const MESSAGES_BUNDLE_ID = 'com.apple.MobileSMS';
export const MESSAGES_CONTACT = 'Ada Lovelace';
export const MESSAGE_FIELD_IDENTIFIER = 'messageBodyField';

interface Message {
  outgoing: boolean;
  text: string;
}

const INPUT_BAR_HEIGHT = 52;
const BUBBLE_TEXT = 17;
const BUBBLE_LINE = 22;
const BUBBLE_PAD_X = 12;
const BUBBLE_PAD_Y = 7;
const BUBBLE_GAP = 8;

/** One conversation: bubbles (in the tree, like iOS), a message field, and a Send button ("\n" sends too). */
class MessagesApp implements AppInstance {
  private readonly messages: Message[] = [
    { outgoing: false, text: 'Hi! Are we still meeting tomorrow?' },
    { outgoing: true, text: 'Yes, at 10 in the library.' },
    { outgoing: false, text: 'Perfect, see you there.' },
  ];
  private readonly field = new TextInput(false, () => this.send());
  private readonly scroll = new ScrollState();
  private stickToBottom = true;

  focusedInput(): TextInput | null {
    return this.field.focused ? this.field : null;
  }

  reset(): void {
    this.field.blur();
    this.stickToBottom = true;
  }

  private send(): void {
    const text = this.field.text.trim();
    if (text === '') return;
    this.messages.push({ outgoing: true, text });
    this.field.clear();
    this.stickToBottom = true;
  }

  windows(env: Env): View[] {
    const { theme } = env;
    const field = this.field;
    const barBottom = env.top + NAV_BAR_HEIGHT;
    const inputTop = (field.focused ? env.height - keyboardHeight(env) : env.height - env.bottom) - INPUT_BAR_HEIGHT;
    const area = { x: 0, y: barBottom, width: env.width, height: inputTop - barBottom };
    const maxBubble = Math.round(env.width * 0.72);
    const ctx = measureContext();
    const laidOut = this.messages.map((m) => {
      const lines = wrapText(ctx, m.text, maxBubble - 2 * BUBBLE_PAD_X, BUBBLE_TEXT);
      const width = Math.ceil(Math.max(...lines.map((l) => measure(l, BUBBLE_TEXT)))) + 2 * BUBBLE_PAD_X;
      return { m, lines, width, height: lines.length * BUBBLE_LINE + 2 * BUBBLE_PAD_Y };
    });
    const contentHeight = laidOut.reduce((h, b) => h + b.height + BUBBLE_GAP, 12) + 4;
    const maxScroll = contentHeight - area.height;
    if (this.stickToBottom) this.scroll.offset = Math.max(0, maxScroll);
    this.scroll.clampTo(maxScroll);
    let y = area.y + 12 - this.scroll.offset;
    const bubbles: View[] = laidOut.map((b, i) => {
      const x = b.m.outgoing ? env.width - 12 - b.width : 12;
      const rect = { x, y, width: b.width, height: b.height };
      y += b.height + BUBBLE_GAP;
      const text = b.m.text;
      return {
        uid: `messages/bubble/${i}`,
        type: 'StaticText',
        label: text,
        value: text,
        identifier: b.m.outgoing ? 'outgoing' : 'incoming',
        rect,
        draw: ({ ctx: c }) => {
          fillRoundRect(c, rect, 17, b.m.outgoing ? theme.tint : theme.fieldBackground);
          b.lines.forEach((line, li) =>
            drawText(c, line, rect.x + BUBBLE_PAD_X, rect.y + BUBBLE_PAD_Y + BUBBLE_LINE / 2 + li * BUBBLE_LINE, {
              size: BUBBLE_TEXT,
              color: b.m.outgoing ? '#ffffff' : theme.label,
            }),
          );
        },
      };
    });
    const transcript: View = {
      uid: 'messages/transcript',
      type: 'ScrollView',
      rect: area,
      clips: true,
      onDrag: (_dx, dy) => {
        this.scroll.drag(dy, maxScroll);
        this.stickToBottom = this.scroll.offset >= maxScroll;
      },
      children: bubbles,
    };
    const canSend = field.text.trim() !== '';
    const fieldRect = { x: 12, y: inputTop + 8, width: env.width - 12 - 52, height: 36 };
    const sendCenter = { x: env.width - 26, y: inputTop + 26 };
    const inputBar: View = {
      uid: 'messages/inputbar',
      type: 'Other',
      rect: { x: 0, y: inputTop, width: env.width, height: INPUT_BAR_HEIGHT },
      opaque: true,
      draw: ({ ctx: c }) => {
        fillRect(c, { x: 0, y: inputTop, width: env.width, height: INPUT_BAR_HEIGHT }, theme.bar);
        hline(c, 0, env.width, inputTop, theme.barBorder);
      },
      children: [
        {
          uid: 'messages/field',
          type: 'TextField',
          identifier: MESSAGE_FIELD_IDENTIFIER,
          label: '',
          value: field.text,
          placeholder: 'iMessage',
          focused: field.focused,
          rect: fieldRect,
          onTap: () => field.focus(),
          onClear: () => field.clear(),
          textInput: field,
          draw: (p) => {
            p.ctx.strokeStyle = theme.separator;
            p.ctx.lineWidth = 1;
            p.ctx.beginPath();
            p.ctx.roundRect(fieldRect.x, fieldRect.y, fieldRect.width, fieldRect.height, 18);
            p.ctx.stroke();
            drawSingleLineText(p, { x: fieldRect.x + 14, y: fieldRect.y + 7, width: fieldRect.width - 28, height: 22 }, field.text, 'iMessage', field.focused);
          },
        },
        {
          uid: 'messages/send',
          type: 'Button',
          label: 'Send',
          identifier: 'sendButton',
          enabled: canSend,
          rect: { x: sendCenter.x - 22, y: sendCenter.y - 22, width: 44, height: 44 },
          onTap: canSend ? () => this.send() : undefined,
          opaque: true,
          draw: ({ ctx: c }) => {
            c.fillStyle = canSend ? theme.tint : theme.tertiaryLabel;
            c.beginPath();
            c.arc(sendCenter.x, sendCenter.y, 15, 0, Math.PI * 2);
            c.fill();
            c.strokeStyle = '#ffffff';
            c.lineWidth = 2.5;
            c.lineCap = 'round';
            c.lineJoin = 'round';
            c.beginPath();
            c.moveTo(sendCenter.x, sendCenter.y + 8);
            c.lineTo(sendCenter.x, sendCenter.y - 8);
            c.moveTo(sendCenter.x - 6, sendCenter.y - 2);
            c.lineTo(sendCenter.x, sendCenter.y - 8);
            c.lineTo(sendCenter.x + 6, sendCenter.y - 2);
            c.stroke();
          },
        },
      ],
    };
    const windows: View[] = [
      {
        uid: 'messages/window',
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx: c }) => fillRect(c, env.screen, theme.background),
        children: [transcript, navBar(env, { uid: 'messages/navbar', title: MESSAGES_CONTACT }), inputBar],
      },
    ];
    if (field.focused) windows.push(keyboardWindow(env, field, 'send'));
    return windows;
  }
}

export const messagesApp: AppDefinition = {
  bundleId: MESSAGES_BUNDLE_ID,
  name: 'Messages',
  icon: { background: '#34c759', foreground: '#ffffff', letter: 'M' },
  create: () => new MessagesApp(),
};
