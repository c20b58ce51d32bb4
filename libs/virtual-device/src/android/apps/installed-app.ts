import type { ApkInfo } from '@apex/apk';
import { stableHash } from '../shell/command';
import type { AndroidView } from '../android-view';
import { permissionGroup, type PermissionGroup } from '../device/runtime-permissions';
import { appWindow, contentRect, textView } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv, AppServices } from './app';

const ICON_COLORS = ['#1a73e8', '#188038', '#d93025', '#f29900', '#9334e6', '#007b83', '#c5221f', '#5f6368'];

/** The runtime permission groups an app declares, in manifest order, each once. */
function declaredGroups(permissions: readonly string[]): Array<{ group: PermissionGroup; permission: string }> {
  const seen = new Set<PermissionGroup>();
  const out: Array<{ group: PermissionGroup; permission: string }> = [];
  for (const permission of permissions) {
    const group = permissionGroup(permission);
    if (group && !seen.has(group)) {
      seen.add(group);
      out.push({ group, permission });
    }
  }
  return out;
}

function formatFix(latitude: number, longitude: number): string {
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}

/**
 * An app installed from an APK. The phone runs no code, so it behaves as a plain app does: it opens one screen
 * titled with its label; on every start it asks, one dialog after another, for the runtime permissions its
 * manifest declares and that are not yet decided; it counts its launches in its data (so a first launch — and
 * one after `pm clear` — says so); when it holds the location permission it shows the position it gets; and
 * a process started with string extras shows them ("Launched with: key=value, …").
 */
class InstalledAppInstance implements AndroidAppInstance {
  /** App data: survives the process, not `pm clear` (which drops the instance). */
  private launches = 0;
  /** Process state: reset when the process stops. */
  private started = false;
  private answers = new Map<PermissionGroup, boolean>();
  /** The string extras of the intent that started the process (`am start --es`). */
  private extras: ReadonlyArray<readonly [string, string]> = [];

  constructor(private readonly app: InstalledAppDefinition) {}

  startedWith(extras: ReadonlyArray<readonly [string, string]>): void {
    this.extras = [...extras];
  }

  resumed(services: AppServices): void {
    if (!this.started) {
      this.started = true;
      this.launches++;
      services.log(this.app.label, `onCreate (launch ${this.launches})`);
    }
    const ask = (i: number): void => {
      const next = this.app.groups[i];
      if (!next) return;
      services.requestPermission(this.app.pkg, next.permission, (granted) => {
        this.answers.set(next.group, granted);
        ask(i + 1);
      });
    };
    ask(0);
  }

  window(env: AndroidEnv): AndroidView {
    const content = contentRect(env);
    const { pkg, label } = this.app;
    const line = (i: number, text: string, id: string): AndroidView =>
      textView(env, `${pkg}/${id}`, text, { x: 24, y: content.y + 96 + i * 40, width: env.width - 48, height: 28 }, { size: 16, color: env.theme.secondaryLabel, resourceId: `${pkg}:id/${id}` });
    const views: AndroidView[] = [textView(env, `${pkg}/title`, label, { x: 24, y: content.y + 24, width: env.width - 48, height: 40 }, { size: 28, resourceId: `${pkg}:id/title` })];
    views.push(line(0, this.launches <= 1 ? 'Welcome! This is the first launch.' : `Launched ${this.launches} times`, 'launches'));
    if (this.app.groups.some((g) => g.group === 'location')) {
      const granted = this.answers.get('location');
      const fix = env.services.location();
      const text = granted === undefined ? 'Location: waiting for permission' : !granted ? 'Location: permission denied' : fix ? `Location: ${formatFix(fix.latitude, fix.longitude)}` : 'Location: off';
      views.push(line(1, text, 'location'));
    }
    if (this.extras.length) views.push(line(views.length - 1, `Launched with: ${this.extras.map(([k, v]) => `${k}=${v}`).join(', ')}`, 'extras'));
    return appWindow(env, pkg, views);
  }

  focusedInput(): null {
    return null;
  }

  back(): boolean {
    return false;
  }

  activity(): string {
    return this.app.launcherActivity;
  }

  reset(): void {
    this.started = false;
    this.extras = [];
    this.answers = new Map();
  }
}

export interface InstalledAppDefinition extends AndroidAppDefinition {
  versionCode: number;
  /** Every permission the manifest declares. */
  permissions: readonly string[];
  groups: ReadonlyArray<{ group: PermissionGroup; permission: string }>;
}

/** The phone's record of an app installed from an APK (`cmd package install`, `pm install`). */
export function installedApp(info: ApkInfo): InstalledAppDefinition {
  const letter = (info.name.match(/[A-Za-z0-9]/)?.[0] ?? '?').toUpperCase();
  const definition: InstalledAppDefinition = {
    pkg: info.appId,
    label: info.name,
    launcherActivity: info.launcherActivity ?? '',
    icon: { background: ICON_COLORS[parseInt(stableHash(info.appId), 16) % ICON_COLORS.length], foreground: '#ffffff', letter },
    versionName: info.version ?? '',
    versionCode: info.versionCode ?? 0,
    thirdParty: true,
    permissions: info.permissions,
    groups: declaredGroups(info.permissions),
    create: () => new InstalledAppInstance(definition),
  };
  return definition;
}
