import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import type { AndroidView } from '../android-view';
import { appWindow, contentRect, textView } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const CLOCK_PACKAGE = 'com.google.android.deskclock';
const CLOCK_ACTIVITY = 'com.android.deskclock.DeskClock';
export const CLOCK_TABS = ['Alarm', 'Clock', 'Timer', 'Stopwatch'] as const;
type Tab = (typeof CLOCK_TABS)[number];

/** Clock: four tabs at the bottom; alarms switch on and off, the stopwatch starts and stops (time stands still). */
class ClockInstance implements AndroidAppInstance {
  private tab: Tab = 'Alarm';
  private readonly alarms = [
    { time: '7:00 AM', days: 'Mon, Tue, Wed, Thu, Fri', on: true },
    { time: '9:30 AM', days: 'Sat, Sun', on: false },
  ];
  private stopwatchRunning = false;

  window(env: AndroidEnv): AndroidView {
    const { theme } = env;
    const content = contentRect(env);
    const tabH = 80;
    const body = { x: 0, y: content.y, width: env.width, height: content.height - tabH };
    const children: AndroidView[] = [textView(env, 'clock/title', this.tab, { x: 24, y: body.y + 16, width: 240, height: 40 }, { size: 28, resourceId: `${CLOCK_PACKAGE}:id/action_bar_title` })];
    if (this.tab === 'Alarm') {
      this.alarms.forEach((a, i) => {
        const r = { x: 16, y: body.y + 72 + i * 112, width: env.width - 32, height: 100 };
        children.push({
          uid: `clock/alarm/${i}`,
          type: 'Cell',
          rect: r,
          draw: ({ ctx }) => fillRoundRect(ctx, r, 24, theme.cell),
          children: [
            textView(env, `clock/alarm/${i}/time`, a.time, { x: r.x + 20, y: r.y + 14, width: 200, height: 44 }, { size: 36, resourceId: `${CLOCK_PACKAGE}:id/digital_clock` }),
            textView(env, `clock/alarm/${i}/days`, a.days, { x: r.x + 20, y: r.y + 62, width: 240, height: 24 }, { size: 14, color: theme.secondaryLabel }),
            {
              uid: `clock/alarm/${i}/switch`,
              type: 'Switch',
              resourceId: `${CLOCK_PACKAGE}:id/onoff`,
              text: '',
              checkable: true,
              checked: a.on,
              rect: { x: r.x + r.width - 72, y: r.y + 34, width: 52, height: 32 },
              onTap: () => (a.on = !a.on),
              draw: ({ ctx }) => fillRoundRect(ctx, { x: r.x + r.width - 72, y: r.y + 34, width: 52, height: 32 }, 16, a.on ? theme.switchOn : theme.switchOff),
            },
          ],
        });
      });
    } else if (this.tab === 'Clock') {
      children.push(textView(env, 'clock/time', '12:00', { x: 0, y: body.y + 120, width: env.width, height: 80 }, { size: 64, align: 'center' }));
      children.push(textView(env, 'clock/date', 'Sun, Dec 6', { x: 0, y: body.y + 200, width: env.width, height: 32 }, { size: 18, align: 'center', color: theme.secondaryLabel }));
    } else if (this.tab === 'Timer') {
      children.push(textView(env, 'clock/timer', '00m 00s', { x: 0, y: body.y + 120, width: env.width, height: 80 }, { size: 56, align: 'center', resourceId: `${CLOCK_PACKAGE}:id/timer_setup_time` }));
    } else {
      children.push(textView(env, 'clock/stopwatch', '00:00.00', { x: 0, y: body.y + 120, width: env.width, height: 80 }, { size: 56, align: 'center', resourceId: `${CLOCK_PACKAGE}:id/stopwatch_time_text` }));
      const label = this.stopwatchRunning ? 'Pause' : 'Start';
      const r = { x: env.width / 2 - 48, y: body.y + 260, width: 96, height: 96 };
      children.push({
        uid: 'clock/stopwatch/fab',
        type: 'Button',
        className: 'android.widget.ImageButton',
        resourceId: `${CLOCK_PACKAGE}:id/fab`,
        contentDesc: label,
        label,
        rect: r,
        onTap: () => (this.stopwatchRunning = !this.stopwatchRunning),
        draw: ({ ctx }) => {
          fillRoundRect(ctx, r, 28, theme.tint);
          drawText(ctx, this.stopwatchRunning ? '||' : '\u25b6', r.x + 48, r.y + 48, { size: 28, color: '#ffffff', align: 'center' });
        },
      });
    }
    const tabsRect = { x: 0, y: body.y + body.height, width: env.width, height: tabH };
    const tabW = env.width / CLOCK_TABS.length;
    const tabs: AndroidView = {
      uid: 'clock/tabs',
      type: 'TabBar',
      className: 'android.widget.LinearLayout',
      resourceId: `${CLOCK_PACKAGE}:id/bottom_view`,
      rect: tabsRect,
      opaque: true,
      draw: ({ ctx }) => fillRect(ctx, tabsRect, theme.bar),
      children: CLOCK_TABS.map((t, i) => {
        const r = { x: i * tabW, y: tabsRect.y, width: tabW, height: tabH };
        const selected = t === this.tab;
        return {
          uid: `clock/tab/${t}`,
          type: 'Button',
          className: 'android.widget.FrameLayout',
          contentDesc: t,
          label: t,
          selected,
          rect: r,
          onTap: () => (this.tab = t),
          draw: ({ ctx }) => {
            if (selected) fillRoundRect(ctx, { x: r.x + r.width / 2 - 32, y: r.y + 12, width: 64, height: 32 }, 16, theme.specialKey);
            drawText(ctx, t[0], r.x + r.width / 2, r.y + 28, { size: 16, color: theme.label, weight: 'bold', align: 'center' });
            drawText(ctx, t, r.x + r.width / 2, r.y + 60, { size: 12, color: theme.label, weight: selected ? 'bold' : 'regular', align: 'center' });
          },
        };
      }),
    };
    children.push(tabs);
    return appWindow(env, CLOCK_PACKAGE, children);
  }

  focusedInput() {
    return null;
  }

  back(): boolean {
    return false;
  }

  activity(): string {
    return CLOCK_ACTIVITY;
  }

  reset(): void {
    this.tab = 'Alarm';
    this.stopwatchRunning = false;
  }
}

export const clockApp: AndroidAppDefinition = {
  pkg: CLOCK_PACKAGE,
  label: 'Clock',
  launcherActivity: CLOCK_ACTIVITY,
  icon: { background: '#3d5ba9', foreground: '#ffffff', letter: 'C' },
  versionName: '7.7',
  create: () => new ClockInstance(),
};
