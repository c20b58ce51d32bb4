/**
 * The phone's settings tables (`settings get|put system|secure|global`), the one place its toggles live: Wi-Fi,
 * Bluetooth, airplane mode, mobile data, dark theme and rotation are read from here by the screens, the status
 * bar and the shell alike.
 */
export type SettingsNamespace = 'system' | 'secure' | 'global';

const DEFAULTS: Record<SettingsNamespace, Record<string, string>> = {
  global: {
    airplane_mode_on: '0',
    wifi_on: '1',
    bluetooth_on: '1',
    mobile_data: '1',
    adb_enabled: '1',
    development_settings_enabled: '1',
    stay_on_while_plugged_in: '0',
    window_animation_scale: '1.0',
    transition_animation_scale: '1.0',
    animator_duration_scale: '1.0',
    auto_time: '1',
  },
  system: {
    accelerometer_rotation: '0',
    user_rotation: '0',
    screen_brightness: '102',
    screen_off_timeout: '60000',
    font_scale: '1.0',
  },
  secure: {
    ui_night_mode: '1',
    location_mode: '3',
    default_input_method: 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
    enabled_input_methods: 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
    show_ime_with_hard_keyboard: '1',
    android_id: 'a7e5c0de5ca1ab1e',
  },
};

export class AndroidSystem {
  private readonly tables: Record<SettingsNamespace, Map<string, string>>;

  constructor(
    readonly deviceName: string,
    dark: boolean,
  ) {
    this.tables = {
      global: new Map(Object.entries(DEFAULTS.global)),
      system: new Map(Object.entries(DEFAULTS.system)),
      secure: new Map(Object.entries(DEFAULTS.secure)),
    };
    this.tables.global.set('device_name', deviceName);
    this.dark = dark;
  }

  /** `null` where Android prints "null" (an unset key). */
  get(ns: SettingsNamespace, key: string): string | null {
    return this.tables[ns].get(key) ?? null;
  }

  put(ns: SettingsNamespace, key: string, value: string): void {
    this.tables[ns].set(key, value);
  }

  delete(ns: SettingsNamespace, key: string): boolean {
    return this.tables[ns].delete(key);
  }

  list(ns: SettingsNamespace): [string, string][] {
    return [...this.tables[ns].entries()].sort(([a], [b]) => a.localeCompare(b));
  }

  private flag(ns: SettingsNamespace, key: string): boolean {
    return this.get(ns, key) === '1';
  }

  get wifi(): boolean {
    return this.flag('global', 'wifi_on');
  }
  set wifi(on: boolean) {
    this.put('global', 'wifi_on', on ? '1' : '0');
  }
  get bluetooth(): boolean {
    return this.flag('global', 'bluetooth_on');
  }
  set bluetooth(on: boolean) {
    this.put('global', 'bluetooth_on', on ? '1' : '0');
  }
  get mobileData(): boolean {
    return this.flag('global', 'mobile_data');
  }
  set mobileData(on: boolean) {
    this.put('global', 'mobile_data', on ? '1' : '0');
  }
  /** Airplane mode turns the radios off, as Android does (Wi-Fi and Bluetooth can be turned back on by hand). */
  get airplaneMode(): boolean {
    return this.flag('global', 'airplane_mode_on');
  }
  set airplaneMode(on: boolean) {
    this.put('global', 'airplane_mode_on', on ? '1' : '0');
    if (on) {
      this.wifi = false;
      this.bluetooth = false;
    }
  }
  /** `ui_night_mode`: 2 = yes (dark), 1 = no. */
  get dark(): boolean {
    return this.get('secure', 'ui_night_mode') === '2';
  }
  set dark(on: boolean) {
    this.put('secure', 'ui_night_mode', on ? '2' : '1');
  }
  /** `user_rotation` (0–3): 1 and 3 are landscape. */
  get rotation(): 0 | 1 | 2 | 3 {
    const r = Number(this.get('system', 'user_rotation'));
    return r === 1 || r === 2 || r === 3 ? r : 0;
  }
  /** Connected to a network the way the status bar and Chrome see it. */
  get online(): boolean {
    return this.wifi || (this.mobileData && !this.airplaneMode);
  }
}
