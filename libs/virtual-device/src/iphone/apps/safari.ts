import type { AppDefinition, AppInstance, Env } from './app';
import { drawGlyph, type GlyphName } from '../../engine/render/glyphs';
import { drawText, fillRect, fillRoundRect, hline } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import { contextMenuWindow } from '../ui/context-menu';
import { keyboardWindow } from '../../engine/ui/keyboard';
import { ScrollState } from '../../engine/ui/scroll';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import { toolbar, toolbarTop as toolbarTopOf, TOOLBAR_HEIGHT } from '../ui/toolbar';
import { contains, type View } from '../../engine/view';
import { displayHost, drawPage, HOME_URL, layoutPage, normalizeUrl, pageFor } from './web-pages';

export const SAFARI_BUNDLE_ID = 'com.apple.mobilesafari';

const ADDRESS_BAR_HEIGHT = 52;

/** A browser: an address bar, a web view whose text is pixels only, and a toolbar with history buttons. */
class SafariApp implements AppInstance {
  private history: string[] = [HOME_URL];
  private index = 0;
  private readonly scroll = new ScrollState();
  /** The link whose preview menu a long press opened. */
  private linkMenu: { href: string; rect: { x: number; y: number; width: number; height: number } } | null = null;
  private readonly address = new TextInput(false, () => this.go(normalizeUrl(this.address.text)));

  private get url(): string {
    return this.history[this.index];
  }

  focusedInput(): TextInput | null {
    return this.address.focused ? this.address : null;
  }

  reset(): void {
    this.linkMenu = null;
    this.history = [HOME_URL];
    this.index = 0;
    this.scroll.reset();
    this.address.blur();
  }

  private go(url: string): void {
    this.linkMenu = null;
    this.history = [...this.history.slice(0, this.index + 1), url];
    this.index = this.history.length - 1;
    this.scroll.reset();
    this.address.blur();
  }

  openUrl(url: string): void {
    this.go(normalizeUrl(url));
  }

  private step(delta: number): void {
    const next = this.index + delta;
    if (next < 0 || next >= this.history.length) return;
    this.index = next;
    this.scroll.reset();
  }

  windows(env: Env): View[] {
    const { theme } = env;
    const editing = this.address.focused;
    const barTop = env.top;
    const webTop = barTop + ADDRESS_BAR_HEIGHT;
    const toolbarTop = toolbarTopOf(env);
    const webRect = { x: 0, y: webTop, width: env.width, height: toolbarTop - webTop };
    const page = pageFor(this.url);
    const layout = layoutPage(page, env.width);
    const maxScroll = layout.height - webRect.height;
    this.scroll.clampTo(maxScroll);
    const contentTop = webTop - this.scroll.offset;
    const linkAt = (x: number, y: number) => {
      for (const b of layout.blocks) {
        const rect = { x: 20, y: contentTop + b.y, width: env.width - 40, height: b.height };
        if (b.block.href && contains(rect, x, y)) return { href: b.block.href, rect };
      }
      return null;
    };

    const fieldRect = { x: 12, y: barTop + 8, width: env.width - 24 - (editing ? 66 : 0), height: 36 };
    const address = this.address;
    const field: View = {
      uid: 'safari/address',
      type: 'TextField',
      identifier: 'URL',
      label: 'Address',
      value: editing ? address.text : this.url,
      placeholder: 'Search or enter website name',
      focused: editing,
      textInput: address,
      rect: fieldRect,
      onTap: () => {
        if (!address.focused) {
          address.text = this.url;
          address.focusSelectingAll();
        }
      },
      onClear: () => {
        address.focus();
        address.clear();
      },
      draw: (p) => {
        fillRoundRect(p.ctx, fieldRect, 10, theme.fieldBackground);
        if (editing) {
          const textRect = { x: fieldRect.x + 10, y: fieldRect.y + 7, width: fieldRect.width - 20, height: 22 };
          if (address.allSelected) fillRect(p.ctx, { x: textRect.x, y: textRect.y, width: Math.min(textRect.width, measure(address.text, 17)), height: 22 }, theme.selection);
          drawSingleLineText(p, textRect, address.text, 'Search or enter website name', !address.allSelected);
        } else {
          drawText(p.ctx, displayHost(this.url), env.width / 2, fieldRect.y + fieldRect.height / 2, { size: 17, color: theme.label, align: 'center' });
        }
      },
    };
    const webView: View = {
      uid: 'safari/webview',
      type: 'WebView',
      rect: webRect,
      onDrag: (_dx, dy) => this.scroll.drag(dy, maxScroll),
      onTap: (x, y) => {
        const link = linkAt(x, y);
        if (link) this.go(link.href);
      },
      onLongPress: (x, y) => {
        this.linkMenu = linkAt(x, y);
      },
      draw: ({ ctx }) => {
        ctx.save();
        ctx.beginPath();
        ctx.rect(webRect.x, webRect.y, webRect.width, webRect.height);
        ctx.clip();
        fillRect(ctx, webRect, theme.background);
        drawPage(ctx, layout.blocks, 0, contentTop, { text: theme.label, link: theme.tint });
        ctx.restore();
      },
    };
    const toolButtons: [string, GlyphName | 'forward' | 'book' | 'tabs', boolean, () => void][] = [
      ['Back', 'back', this.index > 0, () => this.step(-1)],
      ['Forward', 'forward', this.index < this.history.length - 1, () => this.step(1)],
      ['Share', 'share', true, () => undefined],
      ['Bookmarks', 'book', true, () => this.go(HOME_URL)],
      ['Tabs', 'tabs', true, () => undefined],
    ];
    const slot = env.width / toolButtons.length;
    const bottomBar = toolbar(env, 'safari/toolbar', toolButtons.map(([label, glyph, enabled, action], i) => {
        const cx = slot * i + slot / 2;
        const cy = toolbarTop + TOOLBAR_HEIGHT / 2;
        return {
          uid: `safari/toolbar/${label.toLowerCase()}`,
          type: 'Button',
          label,
          identifier: label,
          enabled,
          rect: { x: cx - 22, y: toolbarTop, width: 44, height: TOOLBAR_HEIGHT },
          onTap: enabled ? action : undefined,
          opaque: true,
          draw: ({ ctx }) => drawToolGlyph(ctx, glyph, cx, cy, enabled ? theme.tint : theme.tertiaryLabel),
        } satisfies View;
      }),
    );
    const addressBar: View = {
      uid: 'safari/addressbar',
      type: 'Other',
      rect: { x: 0, y: barTop, width: env.width, height: ADDRESS_BAR_HEIGHT },
      opaque: true,
      draw: ({ ctx }) => {
        fillRect(ctx, { x: 0, y: 0, width: env.width, height: webTop }, theme.bar);
        hline(ctx, 0, env.width, webTop, theme.barBorder);
      },
      children: editing
        ? [field, { uid: 'safari/cancel', type: 'Button', label: 'Cancel', rect: { x: env.width - 70, y: barTop, width: 70, height: ADDRESS_BAR_HEIGHT }, onTap: () => address.blur(), draw: ({ ctx }) => drawText(ctx, 'Cancel', env.width - 12, barTop + ADDRESS_BAR_HEIGHT / 2, { size: 17, color: theme.tint, align: 'right' }) }]
        : [field],
    };
    const windows: View[] = [
      {
        uid: 'safari/window',
        type: 'Window',
        rect: env.screen,
        children: [webView, addressBar, ...(editing ? [] : [bottomBar])],
      },
    ];
    if (editing) windows.push(keyboardWindow(env, address, 'go'));
    const link = this.linkMenu;
    if (link && !editing) windows.push(this.linkPreviewMenu(env, link));
    return windows;
  }

  /** Safari's link preview: the linked page in a card, and what can be done with the link. */
  private linkPreviewMenu(env: Env, link: { href: string; rect: { x: number; y: number; width: number; height: number } }): View {
    const { theme } = env;
    const page = pageFor(link.href);
    const close = () => (this.linkMenu = null);
    return contextMenuWindow(
      env,
      'safari/link-menu',
      link.rect,
      [
        { label: 'Open Link', action: () => this.go(link.href) },
        { label: 'Add to Reading List', action: () => undefined },
        { label: 'Copy Link', action: () => env.pasteboard.setText(link.href) },
        { label: 'Share\u2026', action: () => undefined },
      ],
      close,
      {
        label: `${page.title}, ${displayHost(link.href)}`,
        height: 220,
        draw: (ctx, rect) => {
          const scale = 0.7;
          ctx.save();
          ctx.translate(rect.x, rect.y);
          ctx.scale(scale, scale);
          drawPage(ctx, layoutPage(page, rect.width / scale).blocks, 0, 0, { text: theme.label, link: theme.tint });
          ctx.restore();
        },
      },
    );
  }
}

function drawToolGlyph(ctx: import('@napi-rs/canvas').SKRSContext2D, glyph: GlyphName | 'forward' | 'book' | 'tabs', cx: number, cy: number, color: string): void {
  if (glyph === 'forward') {
    ctx.save();
    ctx.translate(cx, cy);
    ctx.scale(-1, 1);
    drawGlyph(ctx, 'back', 0, 0, 22, color);
    ctx.restore();
  } else if (glyph === 'book') {
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    ctx.moveTo(cx, cy - 7);
    ctx.quadraticCurveTo(cx - 6, cy - 11, cx - 12, cy - 9);
    ctx.lineTo(cx - 12, cy + 8);
    ctx.quadraticCurveTo(cx - 6, cy + 6, cx, cy + 10);
    ctx.quadraticCurveTo(cx + 6, cy + 6, cx + 12, cy + 8);
    ctx.lineTo(cx + 12, cy - 9);
    ctx.quadraticCurveTo(cx + 6, cy - 11, cx, cy - 7);
    ctx.lineTo(cx, cy + 10);
    ctx.stroke();
    ctx.restore();
  } else if (glyph === 'tabs') {
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.roundRect(cx - 10, cy - 6, 16, 16, 3);
    ctx.moveTo(cx - 5, cy - 10);
    ctx.lineTo(cx + 8, cy - 10);
    ctx.quadraticCurveTo(cx + 11, cy - 10, cx + 11, cy - 7);
    ctx.lineTo(cx + 11, cy + 5);
    ctx.stroke();
    ctx.restore();
  } else {
    drawGlyph(ctx, glyph, cx, cy, 24, color);
  }
}

export const safariApp: AppDefinition = {
  bundleId: SAFARI_BUNDLE_ID,
  name: 'Safari',
  icon: { background: '#ffffff', foreground: '#007aff', glyph: 'compass' },
  urlSchemes: ['http', 'https'],
  create: () => new SafariApp(),
};
