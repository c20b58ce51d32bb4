import type { AndroidView } from '../android-view';
import { appWindow, contentRect, textView } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppIcon } from './app';

/** An app that opens one titled screen with a few lines (Phone, Camera). */
export function simpleApp(pkg: string, label: string, activity: string, icon: AndroidAppIcon, lines: readonly string[]): AndroidAppDefinition {
  return {
    pkg,
    label,
    launcherActivity: activity,
    icon,
    versionName: '1.0',
    create: () => ({
      window: (env) => {
        const content = contentRect(env);
        const views: AndroidView[] = [textView(env, `${pkg}/title`, label, { x: 24, y: content.y + 24, width: 300, height: 40 }, { size: 28 })];
        lines.forEach((line, i) => views.push(textView(env, `${pkg}/line/${i}`, line, { x: 24, y: content.y + 88 + i * 36, width: env.width - 48, height: 28 }, { size: 16, color: env.theme.secondaryLabel })));
        return appWindow(env, pkg, views);
      },
      focusedInput: () => null,
      back: () => false,
      activity: () => activity,
      reset: () => undefined,
    }),
  };
}
