import { fillRect, fillRoundRect } from '../../engine/render/paint';
import { ScrollState } from '../../engine/ui/scroll';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import { drawPage, layoutPage, type WebPage } from '../../engine/web-page';
import type { AndroidView } from '../android-view';
import { appWindow, contentRect } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const CHROME_PACKAGE = 'com.android.chrome';
const LAUNCH_ACTIVITY = 'com.google.android.apps.chrome.Main';
const TABBED_ACTIVITY = 'org.chromium.chrome.browser.ChromeTabbedActivity';
export const CHROME_HOME_URL = 'https://apex.example/';

/** The pages Chrome has "cached": every other address is the offline error page (the virtual phone has no network). */
const PAGES: Record<string, WebPage> = {
  'apex.example/': {
    title: 'Welcome to Apex',
    blocks: [
      { kind: 'h1', text: 'Welcome to Apex' },
      { kind: 'p', text: 'Apex lets agents and people drive phones through one careful interface.' },
      { kind: 'link', text: 'Read the getting started guide', href: 'https://apex.example/docs' },
      { kind: 'h2', text: 'On Android' },
      { kind: 'p', text: 'This page is drawn by a virtual Android phone that speaks the real adb protocol.' },
    ],
  },
  'apex.example/docs': {
    title: 'Getting started',
    blocks: [
      { kind: 'h1', text: 'Getting started' },
      { kind: 'p', text: 'Step one: start the virtual phone. Step two: connect your agent. Step three: give it a task.' },
      { kind: 'link', text: 'Back to the welcome page', href: 'https://apex.example/' },
    ],
  },
};

const OFFLINE: WebPage = {
  title: 'No internet',
  blocks: [
    { kind: 'h1', text: 'No internet' },
    { kind: 'p', text: 'Try: Checking the network cables, modem, and router. Reconnecting to Wi-Fi.' },
    { kind: 'p', text: 'ERR_INTERNET_DISCONNECTED' },
  ],
};

function pageKey(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./, '');
}

function normalize(typed: string): string {
  const t = typed.trim();
  if (t === '') return CHROME_HOME_URL;
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  return /^https?:\/\/[^/]+$/i.test(withScheme) ? `${withScheme}/` : withScheme;
}

const TOOLBAR = 64;

class ChromeInstance implements AndroidAppInstance {
  private url = CHROME_HOME_URL;
  private history: string[] = [];
  private readonly address = new TextInput(false, () => this.go(this.address.text));
  private readonly scroll = new ScrollState();

  window(env: AndroidEnv): AndroidView {
    const { theme } = env;
    const content = contentRect(env);
    const bar = { x: 0, y: content.y, width: env.width, height: TOOLBAR };
    const field = { x: 12, y: bar.y + 10, width: env.width - 24, height: 44 };
    const editing = this.address.focused;
    const shown = editing ? this.address.text : this.url.replace(/^https:\/\//, '').replace(/\/$/, '');
    const page = this.page(env);
    const webRect = { x: 0, y: bar.y + TOOLBAR, width: env.width, height: content.height - TOOLBAR };
    const layout = layoutPage(page, env.width);
    const maxScroll = layout.height - webRect.height;
    this.scroll.clampTo(maxScroll);
    const top = webRect.y - this.scroll.offset;
    const blocks: AndroidView[] = layout.blocks.map((b, i) => ({
      uid: `chrome/web/block/${i}`,
      type: b.block.kind === 'link' ? 'Link' : 'StaticText',
      className: 'android.view.View',
      text: b.block.text,
      label: b.block.text,
      rect: { x: 20, y: top + b.y, width: env.width - 40, height: b.height },
      onTap: b.block.href ? () => this.go(b.block.href as string) : undefined,
    }));
    const web: AndroidView = {
      uid: 'chrome/web',
      type: 'WebView',
      text: page.title,
      resourceId: undefined,
      rect: webRect,
      clips: true,
      scrollable: maxScroll > 0,
      onDrag: (_dx, dy) => this.scroll.drag(dy, maxScroll),
      draw: ({ ctx }) => {
        fillRect(ctx, webRect, theme.background);
        drawPage(ctx, layout.blocks, 0, top, { text: theme.label, link: theme.tint });
      },
      children: blocks,
    };
    const urlBar: AndroidView = {
      uid: 'chrome/url_bar',
      type: 'TextField',
      resourceId: `${CHROME_PACKAGE}:id/url_bar`,
      text: shown === '' ? 'Search or type URL' : shown,
      label: shown,
      value: shown,
      placeholder: 'Search or type URL',
      focused: editing,
      focusable: true,
      longClickable: true,
      rect: field,
      textInput: this.address,
      onTap: () => {
        if (!this.address.focused) {
          this.address.text = this.url;
          this.address.focusSelectingAll();
        }
      },
      onClear: () => this.address.clear(),
      draw: (p) => {
        fillRoundRect(p.ctx, field, 22, theme.fieldBackground);
        drawSingleLineText(p, { x: field.x + 20, y: field.y + 11, width: field.width - 40, height: 22 }, editing ? this.address.text : shown, 'Search or type URL', editing);
      },
    };
    const toolbar: AndroidView = {
      uid: 'chrome/toolbar',
      type: 'Other',
      resourceId: `${CHROME_PACKAGE}:id/toolbar`,
      rect: bar,
      opaque: true,
      draw: ({ ctx }) => fillRect(ctx, bar, theme.bar),
      children: [urlBar],
    };
    return appWindow(env, CHROME_PACKAGE, [toolbar, web]);
  }

  private page(env: AndroidEnv): WebPage {
    if (!env.system.online) return OFFLINE;
    return PAGES[pageKey(this.url)] ?? OFFLINE;
  }

  go(typed: string): void {
    const next = normalize(typed);
    if (next !== this.url) this.history.push(this.url);
    this.url = next;
    this.address.blur();
    this.scroll.reset();
  }

  focusedInput(): TextInput | null {
    return this.address.focused ? this.address : null;
  }

  back(): boolean {
    if (this.address.focused) {
      this.address.blur();
      return true;
    }
    const previous = this.history.pop();
    if (previous === undefined) return false;
    this.url = previous;
    this.scroll.reset();
    return true;
  }

  activity(): string {
    return TABBED_ACTIVITY;
  }

  openUrl(url: string): void {
    this.go(url);
  }

  currentUrl(): string {
    return this.url;
  }

  reset(): void {
    this.address.blur();
    this.scroll.reset();
  }
}

export const chromeApp: AndroidAppDefinition = {
  pkg: CHROME_PACKAGE,
  label: 'Chrome',
  launcherActivity: LAUNCH_ACTIVITY,
  icon: { background: '#ffffff', foreground: '#db4437', letter: 'C' },
  versionName: '120.0.6099.230',
  create: () => new ChromeInstance(),
};

