import { z } from 'zod';
import type { AppDefinition, AppInstance, Env, LaunchInfo, PhoneNotification, PhoneServices, PrivacyPermission, SystemState } from './app';
import { PRIVACY_PERMISSIONS } from './app';
import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import type { View } from '../../engine/view';
import { PhoneError } from '../model';

/**
 * Apps installed from a build (`install_app`). Without a screens file an app opens one screen titled with its
 * name. With `apex-screens.json` at the top of its bundle it shows those screens — the format, documented in
 * the iPhone README:
 *
 * ```json
 * { "start": "main",
 *   "permissions": { "location": "Shows where you are." },
 *   "screens": {
 *     "main": { "title": "Where Am I", "asks": ["location"],
 *               "elements": [ { "text": "{location}", "id": "position" }, { "button": "Account", "goto": "signin" } ] },
 *     "signin": { "title": "Sign In", "elements": [ { "button": "Sign in with Face ID", "faceId": "account" } ] },
 *     "account": { "title": "Account", "elements": [ { "text": "Signed in" } ] } } }
 * ```
 *
 * A screen's `asks` shows the system permission alert when it appears while that permission is not answered
 * yet; the answer is kept per app (set_permission changes it, reset_app forgets it). Texts may hold
 * `{location}` (the simulated position as the app sees it), `{notification}` (the last notification opened)
 * and `{arguments}` (the launch arguments). A button goes to a screen (`goto`) or asks for Face ID first
 * (`faceId`: the screen a match opens).
 */

const MAX_SCREENS = 50;
const MAX_ELEMENTS = 50;
const text = z.string().min(1).max(200);
const screenId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1–40 letters, digits, "_" or "-"');

const elementSchema = z.union([
  z.strictObject({ text, id: screenId.optional() }),
  z.strictObject({ button: text, id: screenId.optional(), goto: screenId.optional(), faceId: screenId.optional() }),
]);

export const appScreensSchema = z
  .strictObject({
    start: screenId.optional(),
    /** Why the app asks for each permission (the alert's message; Info.plist's usage descriptions on a real phone). */
    permissions: z.partialRecord(z.enum(PRIVACY_PERMISSIONS), text).optional(),
    screens: z
      .record(screenId, z.strictObject({ title: text, asks: z.array(z.enum(PRIVACY_PERMISSIONS)).max(10).optional(), elements: z.array(elementSchema).max(MAX_ELEMENTS) }))
      .refine((screens) => Object.keys(screens).length >= 1 && Object.keys(screens).length <= MAX_SCREENS, `must have 1–${MAX_SCREENS} screens`),
  })
  .superRefine((file, ctx) => {
    const ids = new Set(Object.keys(file.screens));
    if (file.start !== undefined && !ids.has(file.start)) ctx.addIssue({ code: 'custom', path: ['start'], message: `names no screen ("${file.start}")` });
    for (const [id, screen] of Object.entries(file.screens)) {
      screen.elements.forEach((element, i) => {
        for (const key of ['goto', 'faceId'] as const) {
          const target = (element as Record<string, unknown>)[key];
          if (typeof target === 'string' && !ids.has(target)) ctx.addIssue({ code: 'custom', path: ['screens', id, 'elements', i, key], message: `names no screen ("${target}")` });
        }
      });
    }
  });

export type AppScreens = z.infer<typeof appScreensSchema>;

/** A build as the phone installs it: identity from Info.plist, and the parsed screens file when it has one. */
export interface AppBundle {
  bundleId: string;
  name: string;
  version?: string;
  /** The content of `apex-screens.json` (JSON), when the bundle has one. */
  screens?: unknown;
}

/** Checks a screens file; a bad one is `invalid_argument` naming the first problem's path. */
export function parseAppScreens(json: unknown): AppScreens {
  const parsed = appScreensSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new PhoneError('invalid_argument', `apex-screens.json: ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}`);
}

const PERMISSION_WORDS: Record<PrivacyPermission, string> = {
  location: 'use your location',
  locationAlways: 'use your location even when you are not using the app',
  camera: 'access the camera',
  microphone: 'access the microphone',
  photos: 'access your photos',
  contacts: 'access your contacts',
  calendar: 'access your calendar',
  reminders: 'access your reminders',
  notifications: 'send you notifications',
  motion: 'access your motion and fitness activity',
};

/** The system's permission alert: its title and buttons, as iOS words them. */
export function permissionAlert(appName: string, permission: PrivacyPermission): { title: string; buttons: string[]; allow: string; deny: string } {
  if (permission === 'location' || permission === 'locationAlways') {
    return { title: `Allow \u201c${appName}\u201d to ${PERMISSION_WORDS[permission]}?`, buttons: ['Allow Once', 'Allow While Using App', "Don't Allow"], allow: 'Allow While Using App', deny: "Don't Allow" };
  }
  return { title: `\u201c${appName}\u201d Would Like to ${PERMISSION_WORDS[permission].replace(/^./, (c) => c.toUpperCase())}`, buttons: ["Don't Allow", 'Allow'], allow: 'Allow', deny: "Don't Allow" };
}

/** How an app sees the simulated position: only with the permission, and only once one is set. */
export function locationText(system: SystemState, bundleId: string): string {
  const answer = system.privacy.get(bundleId)?.get('location') ?? system.privacy.get(bundleId)?.get('locationAlways');
  if (answer === undefined) return 'Location permission not granted yet';
  if (answer === 'denied') return 'Location access denied';
  if (!system.location) return 'Location unavailable';
  const { latitude, longitude } = system.location;
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}

const ROW_HEIGHT = 44;

class InstalledApp implements AppInstance {
  private stack: string[];
  private services: PhoneServices | null = null;
  private launch: LaunchInfo = { arguments: [], environment: {} };
  private lastNotification: string | null = null;
  /** The screen a Face ID match opens, while the prompt shows. */
  private faceIdFor: string | null = null;
  private status: string | null = null;

  constructor(
    private readonly bundle: AppBundle,
    private readonly screens: AppScreens | null,
    private readonly system: SystemState,
  ) {
    this.stack = [this.startScreen()];
  }

  private startScreen(): string {
    return this.screens ? (this.screens.start ?? (Object.keys(this.screens.screens)[0] as string)) : 'main';
  }

  focusedInput(): null {
    return null;
  }

  reset(): void {
    this.stack = [this.startScreen()];
    this.faceIdFor = null;
    this.status = null;
  }

  started(launch: LaunchInfo): void {
    this.launch = launch;
  }

  activated(services: PhoneServices): void {
    this.services = services;
    this.ask();
  }

  notificationOpened(notification: PhoneNotification): void {
    this.lastNotification = notification.title;
  }

  biometricAnswered(matched: boolean): boolean {
    const target = this.faceIdFor;
    if (target === null) return false;
    this.faceIdFor = null;
    if (matched) {
      this.stack.push(target);
      this.status = null;
      this.ask();
    } else this.status = 'Face ID did not match. Try again.';
    return true;
  }

  /** The first permission the current screen needs that the app has no answer for yet: the system asks. */
  private ask(): void {
    const screen = this.screens?.screens[this.stack[this.stack.length - 1] as string];
    const services = this.services;
    if (!screen?.asks || !services) return;
    const answers = this.system.privacy.get(this.bundle.bundleId);
    const permission = screen.asks.find((p) => answers?.get(p) === undefined);
    if (!permission) return;
    const alert = permissionAlert(this.bundle.name, permission);
    services.showAlert(this.bundle.bundleId, {
      title: alert.title,
      message: this.screens?.permissions?.[permission] ?? `${this.bundle.name} needs this to work.`,
      buttons: alert.buttons,
      acceptButton: alert.allow,
      dismissButton: alert.deny,
      onChoice: (button) => {
        let map = this.system.privacy.get(this.bundle.bundleId);
        if (!map) this.system.privacy.set(this.bundle.bundleId, (map = new Map()));
        map.set(permission, button === alert.deny ? 'denied' : 'granted');
      },
    });
  }

  private fill(template: string): string {
    return template
      .replace(/\{location\}/g, () => locationText(this.system, this.bundle.bundleId))
      .replace(/\{notification\}/g, () => this.lastNotification ?? 'none')
      .replace(/\{arguments\}/g, () => (this.launch.arguments.length ? this.launch.arguments.join(' ') : 'none'));
  }

  windows(env: Env): View[] {
    const key = `app/${this.bundle.bundleId}`;
    const id = this.stack[this.stack.length - 1] as string;
    const screen = this.screens?.screens[id];
    const title = screen?.title ?? this.bundle.name;
    const lines = screen ? screen.elements : [{ text: this.bundle.name }, { text: this.bundle.version ? `Version ${this.bundle.version}` : this.bundle.bundleId }];
    const previous = this.stack.length > 1 ? this.screens?.screens[this.stack[this.stack.length - 2] as string] : undefined;
    const back = previous ? { label: previous.title, onTap: () => void this.stack.pop() } : undefined;
    let y = env.top + NAV_BAR_HEIGHT + 24;
    const children: View[] = [navBar(env, { uid: `${key}/navbar/${id}`, title, back })];
    lines.forEach((element, i) => {
      const uid = `${key}/${id}/${'id' in element && element.id ? element.id : i}`;
      const rowY = y;
      if ('text' in element) {
        const label = this.fill(element.text);
        const w = Math.min(env.width - 32, Math.ceil(measure(label, 17)));
        children.push({
          uid,
          type: 'StaticText',
          label,
          value: label,
          identifier: element.id,
          rect: { x: Math.round((env.width - w) / 2), y: rowY + 11, width: w, height: 22 },
          draw: ({ ctx, theme }) => drawText(ctx, label, env.width / 2, rowY + 22, { size: 17, color: theme.label, align: 'center' }),
        });
      } else {
        const label = element.button;
        const rect = { x: 16, y: rowY + 2, width: env.width - 32, height: ROW_HEIGHT - 4 };
        children.push({
          uid,
          type: 'Button',
          label,
          identifier: element.id,
          rect,
          onTap: () => {
            this.status = null;
            if (element.faceId) {
              if (this.system.biometricEnrolled) this.faceIdFor = element.faceId;
              else this.status = 'Face ID is not set up on this iPhone.';
            } else if (element.goto) {
              this.stack.push(element.goto);
              this.ask();
            }
          },
          draw: ({ ctx, theme }) => {
            fillRoundRect(ctx, rect, 10, theme.tint);
            drawText(ctx, label, env.width / 2, rowY + ROW_HEIGHT / 2, { size: 17, color: '#ffffff', align: 'center', weight: 'bold' });
          },
        });
      }
      y += ROW_HEIGHT;
    });
    if (this.status) {
      const status = this.status;
      const statusY = y;
      children.push({
        uid: `${key}/status`,
        type: 'StaticText',
        label: status,
        rect: { x: 16, y: statusY + 11, width: env.width - 32, height: 22 },
        draw: ({ ctx, theme }) => drawText(ctx, status, env.width / 2, statusY + 22, { size: 15, color: theme.secondaryLabel, align: 'center' }),
      });
    }
    const windows: View[] = [{ uid: `${key}/window`, type: 'Window', rect: env.screen, draw: ({ ctx, theme }) => fillRect(ctx, env.screen, theme.background), children }];
    if (this.faceIdFor !== null) windows.push(faceIdPrompt(env, key, () => (this.faceIdFor = null)));
    return windows;
  }
}

/** The system's Face ID sheet while it waits for a face: a biometric answer (or Cancel) closes it. */
function faceIdPrompt(env: Env, key: string, cancel: () => void): View {
  const box = { x: env.width / 2 - 80, y: env.height / 2 - 80, width: 160, height: 160 };
  const cancelRect = { x: box.x, y: box.y + box.height + 12, width: box.width, height: 36 };
  return {
    uid: `${key}/face-id/window`,
    type: 'Window',
    rect: env.screen,
    children: [
      {
        uid: `${key}/face-id`,
        type: 'Other',
        label: 'Face ID',
        rect: box,
        draw: ({ ctx }) => {
          fillRoundRect(ctx, box, 20, 'rgba(40,40,40,0.9)');
          drawText(ctx, 'Face ID', env.width / 2, box.y + box.height - 28, { size: 17, color: '#ffffff', align: 'center', weight: 'bold' });
          ctx.strokeStyle = '#ffffff';
          ctx.lineWidth = 3;
          ctx.strokeRect(box.x + 50, box.y + 30, 60, 60);
        },
      },
      {
        uid: `${key}/face-id/cancel`,
        type: 'Button',
        label: 'Cancel',
        rect: cancelRect,
        onTap: cancel,
        draw: ({ ctx, theme }) => {
          fillRoundRect(ctx, cancelRect, 10, theme.cell);
          drawText(ctx, 'Cancel', env.width / 2, cancelRect.y + 18, { size: 17, color: theme.tint, align: 'center' });
        },
      },
    ],
  };
}

const ICON_COLOURS = ['#ff9500', '#34c759', '#007aff', '#af52de', '#ff2d55', '#5856d6', '#30b0c7'];

/** The app definition of an installed build (its icon drawn from its name). */
export function installedAppDefinition(bundle: AppBundle): AppDefinition {
  const screens = bundle.screens === undefined ? null : parseAppScreens(bundle.screens);
  let hash = 0;
  for (const c of bundle.bundleId) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return {
    bundleId: bundle.bundleId,
    name: bundle.name,
    icon: { background: ICON_COLOURS[hash % ICON_COLOURS.length] as string, foreground: '#ffffff', letter: (bundle.name.trim()[0] ?? '?').toUpperCase() },
    create: (system) => new InstalledApp(bundle, screens, system),
  };
}
