import type { AppDefinition, AppInstance, Env, SystemState } from './app';
import { navBar, navBarHeight } from '../ui/nav-bar';
import { ScrollState } from '../../engine/ui/scroll';
import { groupedTable, type Row, type RowIcon, type Section } from '../ui/table';
import type { View } from '../../engine/view';

export const SETTINGS_BUNDLE_ID = 'com.apple.Preferences';

type Toggle = 'airplaneMode' | 'wifi' | 'bluetooth';

interface RowSpec {
  id: string;
  title: string;
  icon: RowIcon;
  toggle?: Toggle;
  detail?: string;
}

/** The root list, in order, one array per section. Other apps and tests rely on these titles. */
export const SETTINGS_SECTIONS: readonly (readonly RowSpec[])[] = [
  [
    { id: 'airplane', title: 'Airplane Mode', icon: { color: '#ff9500', letter: 'A' }, toggle: 'airplaneMode' },
    { id: 'wifi', title: 'Wi-Fi', icon: { color: '#007aff', letter: 'W' }, toggle: 'wifi' },
    { id: 'bluetooth', title: 'Bluetooth', icon: { color: '#007aff', letter: 'B' }, toggle: 'bluetooth' },
    { id: 'cellular', title: 'Cellular', icon: { color: '#34c759', letter: 'C' } },
    { id: 'hotspot', title: 'Personal Hotspot', icon: { color: '#34c759', letter: 'H' }, detail: 'Off' },
  ],
  [
    { id: 'notifications', title: 'Notifications', icon: { color: '#ff3b30', letter: 'N' } },
    { id: 'sounds', title: 'Sounds & Haptics', icon: { color: '#ff2d55', letter: 'S' } },
    { id: 'focus', title: 'Focus', icon: { color: '#5856d6', letter: 'F' } },
    { id: 'screentime', title: 'Screen Time', icon: { color: '#5856d6', letter: 'T' } },
  ],
  [
    { id: 'general', title: 'General', icon: { color: '#8e8e93', glyph: 'gear' } },
    { id: 'controlcenter', title: 'Control Center', icon: { color: '#8e8e93', letter: 'C' } },
    { id: 'display', title: 'Display & Brightness', icon: { color: '#007aff', letter: 'D' } },
    { id: 'homescreen', title: 'Home Screen', icon: { color: '#5856d6', letter: 'H' } },
    { id: 'accessibility', title: 'Accessibility', icon: { color: '#007aff', letter: 'A' } },
    { id: 'wallpaper', title: 'Wallpaper', icon: { color: '#32ade6', letter: 'W' } },
    { id: 'siri', title: 'Siri & Search', icon: { color: '#1c1c1e', letter: 'S' } },
    { id: 'faceid', title: 'Face ID & Passcode', icon: { color: '#34c759', letter: 'F' } },
    { id: 'sos', title: 'Emergency SOS', icon: { color: '#ff3b30', letter: 'E' } },
    { id: 'battery', title: 'Battery', icon: { color: '#34c759', letter: 'B' } },
    { id: 'privacy', title: 'Privacy & Security', icon: { color: '#007aff', letter: 'P' } },
  ],
  [
    { id: 'appstore', title: 'App Store', icon: { color: '#007aff', letter: 'A' } },
    { id: 'wallet', title: 'Wallet', icon: { color: '#1c1c1e', letter: 'W' } },
  ],
  [
    { id: 'passwords', title: 'Passwords', icon: { color: '#8e8e93', letter: 'P' } },
    { id: 'mail', title: 'Mail', icon: { color: '#007aff', letter: 'M' } },
    { id: 'contacts', title: 'Contacts', icon: { color: '#8e8e93', letter: 'C' } },
    { id: 'calendar', title: 'Calendar', icon: { color: '#ff3b30', letter: 'C' } },
    { id: 'notes', title: 'Notes', icon: { color: '#ffcc00', letter: 'N' } },
    { id: 'reminders', title: 'Reminders', icon: { color: '#ff9500', letter: 'R' } },
    { id: 'phone', title: 'Phone', icon: { color: '#34c759', letter: 'P' } },
    { id: 'messages', title: 'Messages', icon: { color: '#34c759', letter: 'M' } },
    { id: 'safari', title: 'Safari', icon: { color: '#007aff', letter: 'S' } },
  ],
];

/** The row Settings shows above all others while an update waits (`softwareUpdate`). */
export const SOFTWARE_UPDATE_ROW_TITLE = 'Software Update Available';

/** Every root row title, top to bottom. */
export const SETTINGS_ROW_TITLES: readonly string[] = SETTINGS_SECTIONS.flat().map((r) => r.title);

export const GENERAL_ROW_TITLES: readonly string[] = [
  'About',
  'Software Update',
  'AirDrop',
  'AirPlay & Continuity',
  'iPhone Storage',
  'Background App Refresh',
  'Date & Time',
  'Keyboard',
  'Fonts',
  'Language & Region',
  'Dictionary',
  'VPN & Device Management',
  'Legal & Regulatory',
  'Transfer or Reset iPhone',
  'Shut Down',
];

type PageId = { kind: 'root' } | { kind: 'general' } | { kind: 'about' } | { kind: 'plain'; title: string; from: string };

interface Page {
  id: PageId;
  scroll: ScrollState;
}

function rootPage(): Page {
  return { id: { kind: 'root' }, scroll: new ScrollState() };
}

class SettingsApp implements AppInstance {
  private stack: Page[] = [rootPage()];

  constructor(private readonly system: SystemState) {}

  focusedInput(): null {
    return null;
  }

  reset(): void {
    this.stack = [rootPage()];
  }

  /** `prefs:root=General&path=About` (and `App-prefs:`): a fresh stack down to the page it names. */
  openUrl(url: string): void {
    const query = new URLSearchParams(url.replace(/^[a-z-]+:/i, '').replace(/^\/*/, ''));
    const root = query.get('root')?.toLowerCase();
    const path = query.get('path')?.toLowerCase();
    this.stack = [rootPage()];
    if (root !== 'general') return;
    this.push({ kind: 'general' });
    if (path === 'about') this.push({ kind: 'about' });
  }

  private push(id: PageId): void {
    this.stack.push({ id, scroll: new ScrollState() });
  }

  private pop(): void {
    if (this.stack.length > 1) this.stack.pop();
  }

  windows(env: Env): View[] {
    const page = this.stack[this.stack.length - 1];
    const { title, backLabel, sections } = this.describe(page.id, env);
    const large = page.id.kind === 'root';
    const barBottom = env.top + navBarHeight(large);
    const table = groupedTable(env, {
      uid: `settings/${pageKey(page.id)}/table`,
      rect: { x: 0, y: barBottom, width: env.width, height: env.height - barBottom },
      sections,
      scroll: page.scroll,
      bottomInset: env.bottom,
    });
    const bar = navBar(env, {
      uid: `settings/${pageKey(page.id)}/navbar`,
      title,
      large,
      back: backLabel ? { label: backLabel, onTap: () => this.pop() } : undefined,
    });
    return [
      {
        uid: 'settings/window',
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx, theme }) => {
          ctx.fillStyle = theme.groupedBackground;
          ctx.fillRect(0, 0, env.width, env.height);
        },
        children: [bar, table],
      },
    ];
  }

  private describe(id: PageId, env: Env): { title: string; backLabel?: string; sections: Section[] } {
    switch (id.kind) {
      case 'root': {
        const sections = SETTINGS_SECTIONS.map((rows, i) => ({ id: String(i), rows: rows.map((r) => this.rootRow(r)) }));
        return { title: 'Settings', sections: this.system.softwareUpdate ? [this.updateSection(this.system.softwareUpdate), ...sections] : sections };
      }
      case 'general':
        return {
          title: 'General',
          backLabel: 'Settings',
          sections: [
            { id: 'about', rows: GENERAL_ROW_TITLES.slice(0, 2).map((t) => this.generalRow(t)) },
            { id: 'sharing', rows: GENERAL_ROW_TITLES.slice(2, 4).map((t) => this.generalRow(t)) },
            { id: 'storage', rows: GENERAL_ROW_TITLES.slice(4, 6).map((t) => this.generalRow(t)) },
            { id: 'locale', rows: GENERAL_ROW_TITLES.slice(6, 11).map((t) => this.generalRow(t)) },
            { id: 'vpn', rows: GENERAL_ROW_TITLES.slice(11, 12).map((t) => this.generalRow(t)) },
            { id: 'legal', rows: GENERAL_ROW_TITLES.slice(12, 13).map((t) => this.generalRow(t)) },
            { id: 'reset', rows: GENERAL_ROW_TITLES.slice(13).map((t) => this.generalRow(t)) },
          ],
        };
      case 'about':
        return {
          title: 'About',
          backLabel: 'General',
          sections: [
            {
              id: 'identity',
              rows: [
                { id: 'name', title: 'Name', detail: this.system.deviceName, identifier: 'NAME_CELL_ID' },
                { id: 'version', title: 'iOS Version', detail: env.profile.osVersion, identifier: 'SW_VERSION_SPECIFIER' },
                { id: 'model', title: 'Model Name', detail: env.profile.model, identifier: 'ModelName' },
                { id: 'number', title: 'Model Number', detail: env.profile.modelNumber },
                { id: 'serial', title: 'Serial Number', detail: 'APEX0VIRTUAL' },
              ],
            },
            {
              id: 'content',
              rows: [
                { id: 'songs', title: 'Songs', detail: '0' },
                { id: 'videos', title: 'Videos', detail: '0' },
                { id: 'photos', title: 'Photos', detail: '12' },
                { id: 'apps', title: 'Applications', detail: '24' },
                { id: 'capacity', title: 'Capacity', detail: '128 GB' },
                { id: 'available', title: 'Available', detail: '97.3 GB' },
              ],
            },
          ],
        };
      case 'plain':
        return {
          title: id.title,
          backLabel: id.from,
          sections: [{ id: 'empty', rows: [{ id: 'placeholder', title: `No ${id.title} settings` }] }],
        };
    }
  }

  private rootRow(spec: RowSpec): Row {
    const row: Row = { id: spec.id, title: spec.title, icon: spec.icon, identifier: `com.apple.settings.${spec.id}` };
    if (spec.toggle) {
      const key = spec.toggle;
      row.toggle = { on: this.system[key], onToggle: () => (this.system[key] = !this.system[key]) };
    } else {
      row.detail = spec.detail;
      row.onTap = () => this.push(spec.id === 'general' ? { kind: 'general' } : { kind: 'plain', title: spec.title, from: 'Settings' });
    }
    return row;
  }

  /** As iOS does while an update waits: a row above all the others (every row below it moves down). */
  private updateSection(update: string): Section {
    const row: Row = {
      id: 'update',
      title: SOFTWARE_UPDATE_ROW_TITLE,
      detail: update,
      icon: { color: '#8e8e93', glyph: 'gear' },
      identifier: 'com.apple.settings.softwareUpdateAvailable',
      onTap: () => this.push({ kind: 'plain', title: 'Software Update', from: 'Settings' }),
    };
    return { id: 'update', rows: [row] };
  }

  private generalRow(title: string): Row {
    const id = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return {
      id,
      title,
      onTap: () => this.push(title === 'About' ? { kind: 'about' } : { kind: 'plain', title, from: 'General' }),
    };
  }
}

function pageKey(id: PageId): string {
  return id.kind === 'plain' ? `page-${id.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` : id.kind;
}

export const settingsApp: AppDefinition = {
  bundleId: SETTINGS_BUNDLE_ID,
  name: 'Settings',
  icon: { background: '#8e8e93', foreground: '#ffffff', glyph: 'gear' },
  urlSchemes: ['prefs', 'app-prefs'],
  create: (system) => new SettingsApp(system),
};
