import { ScrollState } from '../../engine/ui/scroll';
import type { AndroidView } from '../android-view';
import { ANDROID_RELEASE, BUILD_ID } from '../profiles';
import { WIFI_NETWORK } from '../ui/shade';
import { APP_BAR_HEIGHT, appWindow, contentRect, listView, topAppBar, type ListRow } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const SETTINGS_PACKAGE = 'com.android.settings';
const ROOT_ACTIVITY = 'com.android.settings.Settings';
const SUB_ACTIVITY = 'com.android.settings.SubSettings';

type Page = 'root' | 'network' | 'internet' | 'connected' | 'bluetooth' | 'display' | 'apps' | 'about';

const TITLES: Record<Page, string> = {
  root: 'Settings',
  network: 'Network & internet',
  internet: 'Internet',
  connected: 'Connected devices',
  bluetooth: 'Bluetooth',
  display: 'Display',
  apps: 'Apps',
  about: 'About phone',
};

/** Root rows other apps and tests rely on (title → page, where one exists). */
export const SETTINGS_ROOT_TITLES = [
  'Network & internet',
  'Connected devices',
  'Apps',
  'Notifications',
  'Battery',
  'Storage',
  'Sound & vibration',
  'Display',
  'Wallpaper & style',
  'Accessibility',
  'Security & privacy',
  'Location',
  'System',
  'About phone',
];

class SettingsInstance implements AndroidAppInstance {
  private stack: Page[] = ['root'];
  private readonly scrolls = new Map<Page, ScrollState>();

  constructor(private readonly installed: () => readonly AndroidAppDefinition[]) {}

  private get page(): Page {
    return this.stack[this.stack.length - 1];
  }

  private open(page: Page): void {
    this.stack.push(page);
  }

  window(env: AndroidEnv): AndroidView {
    const page = this.page;
    const scroll = this.scrolls.get(page) ?? new ScrollState();
    this.scrolls.set(page, scroll);
    const bar = topAppBar(env, { uid: `settings/${page}/bar`, title: TITLES[page], pkg: SETTINGS_PACKAGE, onUp: page === 'root' ? undefined : () => this.back() });
    const content = contentRect(env);
    const listRect = { x: 0, y: content.y + APP_BAR_HEIGHT, width: env.width, height: content.height - APP_BAR_HEIGHT };
    const list = listView(env, `settings/${page}/list`, listRect, this.rows(env, page), scroll, `${SETTINGS_PACKAGE}:id/recycler_view`);
    return appWindow(env, SETTINGS_PACKAGE, [bar, list]);
  }

  private rows(env: AndroidEnv, page: Page): ListRow[] {
    const s = env.system;
    const onOff = (on: boolean) => (on ? 'On' : 'Off');
    switch (page) {
      case 'root':
        return [
          { id: 'network', title: 'Network & internet', summary: 'Mobile, Wi-Fi, hotspot', icon: { color: '#3d5ba9', letter: 'N' }, onTap: () => this.open('network') },
          { id: 'connected', title: 'Connected devices', summary: 'Bluetooth, pairing', icon: { color: '#3d5ba9', letter: 'C' }, onTap: () => this.open('connected') },
          { id: 'apps', title: 'Apps', summary: 'Recent apps, default apps', icon: { color: '#3d5ba9', letter: 'A' }, onTap: () => this.open('apps') },
          { id: 'notifications', title: 'Notifications', summary: 'Notification history, conversations', icon: { color: '#3d5ba9', letter: 'N' } },
          { id: 'battery', title: 'Battery', summary: '85%', icon: { color: '#3d5ba9', letter: 'B' } },
          { id: 'storage', title: 'Storage', summary: '31% used - 88 GB free', icon: { color: '#3d5ba9', letter: 'S' } },
          { id: 'sound', title: 'Sound & vibration', summary: 'Volume, haptics, Do Not Disturb', icon: { color: '#3d5ba9', letter: 'S' } },
          { id: 'display', title: 'Display', summary: 'Dark theme, font size, brightness', icon: { color: '#3d5ba9', letter: 'D' }, onTap: () => this.open('display') },
          { id: 'wallpaper', title: 'Wallpaper & style', summary: 'Colors, themed icons, app grid', icon: { color: '#3d5ba9', letter: 'W' } },
          { id: 'accessibility', title: 'Accessibility', summary: 'Display, interaction, audio', icon: { color: '#3d5ba9', letter: 'A' } },
          { id: 'security', title: 'Security & privacy', summary: 'App security, device lock, permissions', icon: { color: '#3d5ba9', letter: 'S' } },
          { id: 'location', title: 'Location', summary: 'On - 1 app has access to location', icon: { color: '#3d5ba9', letter: 'L' } },
          { id: 'system', title: 'System', summary: 'Languages, gestures, time, backup', icon: { color: '#3d5ba9', letter: 'S' } },
          { id: 'about', title: 'About phone', summary: env.profile.model, icon: { color: '#3d5ba9', letter: 'i' }, onTap: () => this.open('about') },
        ];
      case 'network':
        return [
          { id: 'internet', title: 'Internet', summary: s.wifi ? WIFI_NETWORK : s.airplaneMode ? 'Airplane mode' : 'Off', onTap: () => this.open('internet') },
          { id: 'calls', title: 'Calls & SMS', summary: 'T-Mobile' },
          { id: 'sims', title: 'SIMs', summary: 'T-Mobile' },
          { id: 'airplane', title: 'Airplane mode', toggle: { on: s.airplaneMode, onToggle: () => (s.airplaneMode = !s.airplaneMode) } },
          { id: 'hotspot', title: 'Hotspot & tethering', summary: 'Off' },
          { id: 'datasaver', title: 'Data Saver', summary: 'Off' },
          { id: 'vpn', title: 'VPN', summary: 'None' },
          { id: 'dns', title: 'Private DNS', summary: 'Automatic' },
        ];
      case 'internet': {
        const rows: ListRow[] = [{ id: 'wifi', title: 'Wi-Fi', toggle: { on: s.wifi, onToggle: () => (s.wifi = !s.wifi) } }];
        if (s.wifi) {
          rows.push({ id: 'network/AndroidWifi', title: WIFI_NETWORK, summary: 'Connected' });
          rows.push({ id: 'network/ApexGuest', title: 'Apex Guest', summary: 'Saved' });
        } else {
          rows.push({ id: 'wifi_off', title: 'To see available networks, turn Wi-Fi on', enabled: false });
        }
        rows.push({ id: 'mobile', title: 'T-Mobile', summary: s.airplaneMode ? 'Airplane mode' : s.mobileData ? 'Connected / 5G' : 'Mobile data off', toggle: { on: s.mobileData && !s.airplaneMode, onToggle: () => (s.mobileData = !s.mobileData) } });
        return rows;
      }
      case 'connected':
        return [
          { id: 'pair', title: 'Pair new device' },
          { id: 'bluetooth', title: 'Bluetooth', summary: onOff(s.bluetooth), onTap: () => this.open('bluetooth') },
          { id: 'prefs', title: 'Connection preferences', summary: 'Bluetooth, Android Auto, NFC' },
        ];
      case 'bluetooth':
        return [
          { id: 'use', title: 'Use Bluetooth', toggle: { on: s.bluetooth, onToggle: () => (s.bluetooth = !s.bluetooth) } },
          { id: 'pair', title: 'Pair new device', enabled: s.bluetooth },
          { id: 'name', title: 'Device name', summary: s.deviceName },
        ];
      case 'display':
        return [
          { id: 'brightness', title: 'Brightness level', summary: '40%' },
          { id: 'adaptive', title: 'Adaptive brightness', toggle: { on: true, onToggle: () => undefined } },
          { id: 'dark', title: 'Dark theme', toggle: { on: s.dark, onToggle: () => (s.dark = !s.dark) } },
          { id: 'timeout', title: 'Screen timeout', summary: 'After 1 minute of inactivity' },
          { id: 'rotate', title: 'Auto-rotate screen', toggle: { on: s.get('system', 'accelerometer_rotation') === '1', onToggle: () => s.put('system', 'accelerometer_rotation', s.get('system', 'accelerometer_rotation') === '1' ? '0' : '1') } },
          { id: 'font', title: 'Display size and text' },
        ];
      case 'apps': {
        const apps = [...this.installed()].sort((a, b) => a.label.localeCompare(b.label));
        return [{ id: 'all', title: `See all ${apps.length} apps` }, ...apps.map((a) => ({ id: `app/${a.pkg}`, title: a.label, summary: a.pkg }))];
      }
      case 'about':
        return [
          { id: 'name', title: 'Device name', summary: s.deviceName },
          { id: 'phone', title: 'Phone number', summary: '+1 650-555-0123' },
          { id: 'model', title: 'Model', summary: env.profile.model },
          { id: 'android', title: 'Android version', summary: ANDROID_RELEASE },
          { id: 'build', title: 'Build number', summary: BUILD_ID },
        ];
    }
  }

  focusedInput() {
    return null;
  }

  back(): boolean {
    if (this.stack.length <= 1) return false;
    const gone = this.stack.pop();
    if (gone) this.scrolls.delete(gone);
    return true;
  }

  activity(): string {
    return this.page === 'root' ? ROOT_ACTIVITY : SUB_ACTIVITY;
  }

  /** `android.settings.WIFI_SETTINGS` and friends: open one page directly. */
  showPage(page: 'internet' | 'bluetooth' | 'display' | 'about' | 'root'): void {
    this.stack = page === 'root' ? ['root'] : ['root', page];
  }

  reset(): void {
    this.stack = ['root'];
    this.scrolls.clear();
  }
}

export function settingsApp(installed: () => readonly AndroidAppDefinition[]): AndroidAppDefinition {
  return {
    pkg: SETTINGS_PACKAGE,
    label: 'Settings',
    launcherActivity: ROOT_ACTIVITY,
    icon: { background: '#3d5ba9', foreground: '#ffffff', letter: 'S' },
    versionName: ANDROID_RELEASE,
    create: () => new SettingsInstance(installed),
  };
}

export type { SettingsInstance };
