import { measure } from '../../engine/render/measure';
import { drawText, fillRoundRect, wrapText } from '../../engine/render/paint';
import { measureContext } from '../../engine/render/measure';
import { ScrollState } from '../../engine/ui/scroll';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import type { AndroidView } from '../android-view';
import { APP_BAR_HEIGHT, appWindow, contentRect, listView, topAppBar } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const MESSAGES_PACKAGE = 'com.google.android.apps.messaging';
const LIST_ACTIVITY = 'com.google.android.apps.messaging.ui.ConversationListActivity';
const CONVERSATION_ACTIVITY = 'com.google.android.apps.messaging.ui.conversation.ConversationActivity';
export const MESSAGES_CONTACT = 'Ada Lovelace';

interface Message {
  text: string;
  outgoing: boolean;
}

class MessagesInstance implements AndroidAppInstance {
  private inConversation = false;
  private readonly messages: Message[] = [
    { text: 'Are we still on for tomorrow?', outgoing: false },
    { text: 'Yes, see you at ten.', outgoing: true },
    { text: 'Bring the notes on the engine, please.', outgoing: false },
  ];
  private readonly compose = new TextInput(false, () => this.send());
  private readonly listScroll = new ScrollState();

  private send(): void {
    const text = this.compose.text.trim();
    if (text === '') return;
    this.messages.push({ text, outgoing: true });
    this.compose.clear();
  }

  window(env: AndroidEnv): AndroidView {
    const content = contentRect(env);
    if (!this.inConversation) {
      const bar = topAppBar(env, { uid: 'messages/list/bar', title: 'Messages', pkg: MESSAGES_PACKAGE });
      const last = this.messages[this.messages.length - 1];
      const list = listView(
        env,
        'messages/list',
        { x: 0, y: content.y + APP_BAR_HEIGHT, width: env.width, height: content.height - APP_BAR_HEIGHT },
        [{ id: 'ada', title: MESSAGES_CONTACT, summary: last.outgoing ? `You: ${last.text}` : last.text, icon: { color: '#7b5ea7', letter: 'A' }, onTap: () => (this.inConversation = true) }],
        this.listScroll,
        `${MESSAGES_PACKAGE}:id/conversation_list`,
      );
      return appWindow(env, MESSAGES_PACKAGE, [bar, list]);
    }
    const { theme } = env;
    const bar = topAppBar(env, { uid: 'messages/conversation/bar', title: MESSAGES_CONTACT, pkg: MESSAGES_PACKAGE, onUp: () => this.back() });
    const composeH = 64;
    const composeTop = content.y + content.height - composeH;
    const ctx = measureContext();
    const maxW = env.width * 0.7;
    let y = composeTop - 12;
    const bubbles: AndroidView[] = [];
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i];
      const lines = wrapText(ctx, m.text, maxW - 32, 16);
      const w = Math.min(maxW, Math.max(...lines.map((l) => measure(l, 16))) + 32);
      const h = lines.length * 22 + 20;
      y -= h + 8;
      if (y < content.y + APP_BAR_HEIGHT) break;
      const r = { x: m.outgoing ? env.width - 16 - w : 16, y, width: w, height: h };
      bubbles.unshift({
        uid: `messages/bubble/${i}`,
        type: 'StaticText',
        resourceId: `${MESSAGES_PACKAGE}:id/message_text`,
        text: m.text,
        label: m.text,
        rect: r,
        draw: ({ ctx: c }) => {
          fillRoundRect(c, r, 18, m.outgoing ? theme.tint : theme.fieldBackground);
          const color = m.outgoing ? (theme.appearance === 'dark' ? '#11275a' : '#ffffff') : theme.label;
          lines.forEach((line, k) => drawText(c, line, r.x + 16, r.y + 21 + k * 22, { size: 16, color }));
        },
      });
    }
    const field = { x: 16, y: composeTop + 8, width: env.width - 16 - 72, height: 48 };
    const compose: AndroidView = {
      uid: 'messages/compose',
      type: 'TextField',
      resourceId: `${MESSAGES_PACKAGE}:id/compose_message_text`,
      text: this.compose.text === '' ? 'Text message' : this.compose.text,
      label: this.compose.text,
      placeholder: 'Text message',
      focused: this.compose.focused,
      focusable: true,
      rect: field,
      textInput: this.compose,
      onTap: () => this.compose.focus(),
      onClear: () => this.compose.clear(),
      draw: (p) => {
        fillRoundRect(p.ctx, field, 24, theme.fieldBackground);
        drawSingleLineText(p, { x: field.x + 20, y: field.y + 13, width: field.width - 40, height: 22 }, this.compose.text, 'Text message', this.compose.focused);
      },
    };
    const canSend = this.compose.text.trim() !== '';
    const sendRect = { x: env.width - 64, y: composeTop + 8, width: 48, height: 48 };
    const send: AndroidView = {
      uid: 'messages/send',
      type: 'Button',
      className: 'android.widget.ImageView',
      resourceId: `${MESSAGES_PACKAGE}:id/send_message_button_icon`,
      contentDesc: 'Send SMS',
      label: 'Send SMS',
      enabled: canSend,
      rect: sendRect,
      onTap: () => this.send(),
      draw: ({ ctx: c }) => {
        c.fillStyle = canSend ? theme.tint : theme.fieldBackground;
        c.beginPath();
        c.arc(sendRect.x + 24, sendRect.y + 24, 22, 0, Math.PI * 2);
        c.fill();
        drawText(c, '\u27a4', sendRect.x + 24, sendRect.y + 24, { size: 18, color: canSend ? '#ffffff' : theme.tertiaryLabel, align: 'center' });
      },
    };
    return appWindow(env, MESSAGES_PACKAGE, [bar, ...bubbles, compose, send]);
  }

  focusedInput(): TextInput | null {
    return this.compose.focused ? this.compose : null;
  }

  back(): boolean {
    if (!this.inConversation) return false;
    this.compose.blur();
    this.inConversation = false;
    return true;
  }

  activity(): string {
    return this.inConversation ? CONVERSATION_ACTIVITY : LIST_ACTIVITY;
  }

  reset(): void {
    this.inConversation = false;
    this.compose.blur();
  }
}

export const messagesApp: AndroidAppDefinition = {
  pkg: MESSAGES_PACKAGE,
  label: 'Messages',
  launcherActivity: LIST_ACTIVITY,
  icon: { background: '#1a73e8', foreground: '#ffffff', letter: 'M' },
  versionName: '20240115_00_RC00',
  create: () => new MessagesInstance(),
};
