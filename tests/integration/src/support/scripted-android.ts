import { deflateSync } from 'node:zlib';
import { MemoryFiles, type AdbDeviceBackend, type ShellSession } from '@apex/virtual-device';
import { shellWords } from '@apex/virtual-device/testing';

/*
 * A scripted Android for the ADB driver's specs, behind the real virtual adbd: a few screens of state and the
 * shell commands the driver sends, answered in the formats AOSP prints them (frameworks/base dump code,
 * InputShellCommand, toybox ps, cmds/uiautomator, Am/Pm shell commands). It records every command line it
 * runs, so specs can assert exactly what reached the device. It is NOT the virtual Android phone (that one
 * draws real screens and runs the driver contract): it is for exact command lines, older Android versions'
 * answers and failures a phone rarely shows (a hanging command, no draganddrop, a keyboard frame).
 */

export const SCRIPTED_PROFILE = { widthPx: 1080, heightPx: 2400, density: 420 } as const;
export const LAUNCHER = 'com.google.android.apps.nexuslauncher';

interface App {
  label: string;
  activity: string;
  /** Shows the runtime-permission dialog on first launch. */
  asksPermission?: boolean;
}

export const SCRIPTED_APPS: Record<string, App> = {
  'com.android.settings': { label: 'Settings', activity: 'com.android.settings.Settings' },
  'com.android.chrome': { label: 'Chrome', activity: 'com.google.android.apps.chrome.Main' },
  'com.google.android.apps.maps': { label: 'Maps', activity: 'com.google.android.maps.MapsActivity', asksPermission: true },
};

export class ScriptedAndroid {
  readonly commands: string[] = [];
  /** What `input text` received, decoded as InputShellCommand decodes it. */
  readonly typed: string[] = [];
  foreground: string | null = null;
  running = new Set<string>();
  awake = true;
  keyguard = false;
  rotation = 0;
  dark = false;
  keyboard = false;
  permissionPending = false;
  /** `input` of Android 11 and older: no `draganddrop`. */
  androidBefore12 = false;
  /** Every command hangs until its stream closes (a stuck device). */
  hangEverything = false;
  /** Sessions of hanging commands still open; they end when their stream closes. */
  readonly hanging = new Set<ShellSession>();
  readonly aborted: string[] = [];

  backend(): AdbDeviceBackend {
    return {
      identity: { product: 'scripted', model: 'Scripted Pixel', device: 'scripted' },
      shell: (session) => this.run(session),
      files: new MemoryFiles(),
    };
  }

  private px(): { width: number; height: number } {
    const { widthPx, heightPx } = SCRIPTED_PROFILE;
    return this.rotation % 2 === 0 ? { width: widthPx, height: heightPx } : { width: heightPx, height: widthPx };
  }

  private focusPackage(): string {
    if (this.permissionPending) return 'com.google.android.permissioncontroller';
    return this.foreground ?? LAUNCHER;
  }

  private windowDump(): string {
    const { width, height } = this.px();
    const pkg = this.focusPackage();
    return [
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      '  Display: mDisplayId=0 (organized) rootTasks=2',
      `    init=1080x2400 420dpi mMinSizeOfResizeableTaskDp=220 cur=${width}x${height} app=${width}x${height - 63} rng=1080x1017-2337x2337`,
      'WINDOW MANAGER WINDOWS (dumpsys window windows)',
      '  Window #2 Window{5f1f2a8 u0 InputMethod}:',
      '    mAttrs={(0,0)(fillxwrap) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan} ty=INPUT_METHOD fmt=TRANSPARENT}',
      `    Frames: parent=[0,0][${width},${height}] display=[0,0][${width},${height}] frame=[0,${height - 840}][${width},${height}] last=[0,${height - 840}][${width},${height}]`,
      `    isOnScreen=${this.keyboard}`,
      `    isVisible=${this.keyboard}`,
      `  Window #3 Window{8a1e0c5 u0 ${pkg}/${pkg}.Main}:`,
      '',
      `  mCurrentFocus=Window{8a1e0c5 u0 ${pkg}/${pkg}.Main}`,
      `  mFocusedApp=ActivityRecord{3f5e1b2 u0 ${pkg}/.Main t12}`,
      '  DisplayRotation',
      `    mRotation=${this.rotation} mDeferredRotationPauseCount=0`,
      `  mKeyguardShowing=${this.keyguard}`,
      '',
    ].join('\n');
  }

  /** `uiautomator dump` XML of the screen in front. */
  private dump(): string {
    const { width, height } = this.px();
    const node = (attrs: Record<string, string>, children = ''): string => {
      const all = { index: '0', text: '', 'resource-id': '', class: 'android.view.View', package: this.focusPackage(), 'content-desc': '', checkable: 'false', checked: 'false', clickable: 'false', enabled: 'true', focusable: 'false', focused: 'false', scrollable: 'false', 'long-clickable': 'false', password: 'false', selected: 'false', ...attrs };
      const text = Object.entries(all)
        .map(([k, v]) => `${k}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`)
        .join(' ');
      return children ? `<node ${text}>${children}</node>` : `<node ${text} />`;
    };
    let body: string;
    if (this.permissionPending) {
      body = node(
        { class: 'android.widget.LinearLayout', 'resource-id': 'com.android.permissioncontroller:id/grant_dialog', bounds: '[63,1000][1017,1800]' },
        node({ class: 'android.widget.TextView', text: 'Allow Maps to access this device’s location?', 'resource-id': 'com.android.permissioncontroller:id/permission_message', bounds: '[100,1050][980,1200]' }) +
          node({ index: '1', class: 'android.widget.Button', text: 'While using the app', clickable: 'true', 'resource-id': 'com.android.permissioncontroller:id/permission_allow_foreground_only_button', bounds: '[100,1300][980,1420]' }) +
          node({ index: '2', class: 'android.widget.Button', text: 'Only this time', clickable: 'true', 'resource-id': 'com.android.permissioncontroller:id/permission_allow_one_time_button', bounds: '[100,1450][980,1570]' }) +
          node({ index: '3', class: 'android.widget.Button', text: 'Don’t allow', clickable: 'true', 'resource-id': 'com.android.permissioncontroller:id/permission_deny_button', bounds: '[100,1600][980,1720]' }),
      );
    } else if (this.foreground === null) {
      body = Object.entries(SCRIPTED_APPS)
        .map(([, app], i) => node({ index: String(i), class: 'android.widget.TextView', text: app.label, 'content-desc': app.label, clickable: 'true', bounds: `[${100 + i * 250},1800][${300 + i * 250},2000]` }))
        .join('');
    } else {
      body = node({ class: 'android.widget.EditText', text: this.typed.join(''), focused: String(this.keyboard), clickable: 'true', 'resource-id': `${this.foreground}:id/search`, bounds: '[42,200][1038,326]' });
    }
    const root = node({ class: 'android.widget.FrameLayout', bounds: `[0,0][${width},${height}]` }, body);
    return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${this.rotation}">${root}</hierarchy>`;
  }

  private launch(pkg: string): void {
    this.foreground = pkg;
    if (!this.running.has(pkg) && SCRIPTED_APPS[pkg]?.asksPermission) this.permissionPending = true;
    this.running.add(pkg);
  }

  /** One simple command; stdout/stderr through the session; the exit code. */
  private async command(argv: string[], s: ShellSession): Promise<number> {
    const [name, ...args] = argv;
    const line = argv.join(' ');
    switch (name) {
      case 'echo':
        s.write(`${args.join(' ')}\n`);
        return 0;
      case 'getprop': {
        const props: Record<string, string> = { 'ro.product.manufacturer': 'Google', 'ro.product.model': 'Pixel 7', 'ro.build.version.release': '14' };
        s.write(`${props[args[0] ?? ''] ?? ''}\n`);
        return 0;
      }
      case 'dumpsys':
        if (args[0] === 'window') s.write(this.windowDump());
        else if (args[0] === 'battery') s.write('Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  status: 2\n  health: 2\n  present: true\n  level: 87\n  scale: 100\n');
        else if (args[0] === 'power') s.write(`POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=${this.awake ? 'Awake' : 'Asleep'}\n`);
        else if (args[0] === 'input_method') s.write(`Current Input Method Manager state:\n  mShowRequested=${this.keyboard} mShowExplicitlyRequested=false mShowForced=false mInputShown=${this.keyboard}\n`);
        else s.writeError(`Can't find service: ${args[0]}\n`);
        return 0;
      case 'screencap':
        if (args[0] !== '-p') return 1;
        s.write(tinyPng(this.px().width, this.px().height, this.dark));
        return 0;
      case 'uiautomator':
        s.write(this.dump());
        s.write('UI hierchary dumped to: /dev/tty\n');
        return 0;
      case 'input':
        return this.input(args, s);
      case 'monkey': {
        const pkg = args[args.indexOf('-p') + 1] ?? '';
        if (!SCRIPTED_APPS[pkg]) {
          s.write('** No activities found to run, monkey aborted.\n');
          return 252;
        }
        this.launch(pkg);
        s.write('Events injected: 1\n## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, 14ms not connected)\n');
        return 0;
      }
      case 'am':
        if (args[0] === 'force-stop') {
          this.running.delete(args[1] ?? '');
          if (this.foreground === args[1]) this.foreground = null;
          return 0;
        }
        if (args[0] === 'start') {
          const data = args[args.indexOf('-d') + 1] ?? '';
          s.write(`Starting: Intent { act=android.intent.action.VIEW dat=${data} }\n`);
          if (!/^https?:/.test(data)) {
            s.writeError(`Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=${data} flg=0x10000000 }\n`);
            return 1;
          }
          this.launch('com.android.chrome');
          return 0;
        }
        return 255;
      case 'pm':
        if (args[0] === 'path') {
          if (!SCRIPTED_APPS[args[1] ?? '']) return 1;
          s.write(`package:/product/app/${args[1]}/base.apk\n`);
          return 0;
        }
        return 255;
      case 'cmd':
        if (args[0] === 'package' && args[1] === 'query-activities') {
          const entries = Object.entries(SCRIPTED_APPS);
          s.write(`${entries.length} activities found:\n`);
          entries.forEach(([pkg, app], i) =>
            s.write(
              `  Activity #${i}:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ActivityInfo:\n      name=${app.activity}\n      packageName=${pkg}\n      labelRes=0x7f1401e4 nonLocalizedLabel=null icon=0x0 banner=0x0\n      enabled=true exported=true directBootAware=false\n`,
            ),
          );
          return 0;
        }
        if (args[0] === 'uimode' && args[1] === 'night') {
          if (args[2] === 'yes' || args[2] === 'no') this.dark = args[2] === 'yes';
          s.write(`Night mode: ${this.dark ? 'yes' : 'no'}\n`);
          return 0;
        }
        s.writeError(`cmd: Can't find service: ${args[0]}\n`);
        return 20;
      case 'ps':
        s.write('USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME\nroot             1     0 10904060 12012 do_epoll_wait       0 S init\n');
        [...this.running].forEach((pkg, i) => s.write(`u0_a${120 + i}      ${4300 + i}   612 15280132 180340 do_epoll_wait      0 S ${pkg}\n`));
        return 0;
      case 'settings':
        if (args[0] === 'put' && args[2] === 'user_rotation') this.rotation = Number(args[3]);
        return 0;
      case 'wm':
        if (args[0] === 'dismiss-keyguard') this.keyguard = false;
        return 0;
      case 'sleep':
        await this.hang(line, s);
        return 0;
      default:
        s.writeError(`/system/bin/sh: ${name}: inaccessible or not found\n`);
        return 127;
    }
  }

  private hang(line: string, s: ShellSession): Promise<void> {
    return new Promise<void>((resolve) => {
          this.hanging.add(s);
          s.signal.addEventListener(
            'abort',
            () => {
              this.hanging.delete(s);
              this.aborted.push(line);
              resolve();
            },
            { once: true },
          );
        });
  }

  private key(code: number): void {
    if (code === 3) {
      this.foreground = null;
      this.permissionPending = false;
    } else if (code === 4) {
      if (this.keyboard) this.keyboard = false;
      else if (this.permissionPending) this.permissionPending = false;
      else this.foreground = null;
    } else if (code === 223) this.awake = false;
    else if (code === 224) this.awake = true;
    else if (code === 66) this.typed.push('\n');
    else if (code === 67) this.typed.push('\b');
  }

  private input(args: string[], s: ShellSession): number {
    const [verb, ...rest] = args;
    switch (verb) {
      case 'text':
        // InputShellCommand.sendText: "%s" is a space.
        this.typed.push((rest[0] ?? '').replace(/%s/g, ' '));
        return 0;
      case 'keyevent':
        for (const code of rest.map(Number)) this.key(code);
        return 0;
      case 'tap': {
        const [x, y] = rest.map(Number) as [number, number];
        if (this.permissionPending && y >= 1300 && y <= 1720) this.permissionPending = false;
        else if (this.foreground !== null && y >= 200 && y <= 326) this.keyboard = true;
        else if (Number.isNaN(x)) {
          s.writeError("Exception occurred while executing 'tap':\njava.lang.IllegalArgumentException: Error: Invalid arguments for command: tap\n");
          return 255;
        }
        return 0;
      }
      case 'draganddrop':
        if (this.androidBefore12) {
          s.writeError('Unknown command: draganddrop\n');
          return 255;
        }
        return 0;
      case 'swipe':
        return 0;
      default:
        s.writeError(`Unknown command: ${verb}\n`);
        return 255;
    }
  }

  /** The shell: `;` and `&&` between simple commands (as the driver sends them), words as sh splits them. */
  private async run(session: ShellSession): Promise<number> {
    this.commands.push(session.command);
    if (this.hangEverything) {
      await this.hang(session.command, session);
      return 0;
    }
    let status = 0;
    for (const { words, after } of splitLine(session.command)) {
      if (after === '&&' && status !== 0) continue;
      status = await this.command(words, session);
    }
    return status;
  }
}

/** Splits at `;` and `&&` outside quotes. */
function splitLine(line: string): { words: string[]; after: ';' | '&&' }[] {
  const parts: { words: string[]; after: ';' | '&&' }[] = [];
  let quote: string | undefined;
  let start = 0;
  let after: ';' | '&&' = ';';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === ';' || (c === '&' && line[i + 1] === '&')) {
      parts.push({ words: shellWords(line.slice(start, i)), after });
      after = c === ';' ? ';' : '&&';
      if (c === '&') i++;
      start = i + 1;
    }
  }
  parts.push({ words: shellWords(line.slice(start)), after });
  return parts.filter((p) => p.words.length > 0);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A one-colour grayscale PNG of the screen's size (white, or black in night mode). */
export function tinyPng(width: number, height: number, dark: boolean): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  const row = Buffer.alloc(width + 1, dark ? 0 : 255);
  row[0] = 0; // filter: none
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
