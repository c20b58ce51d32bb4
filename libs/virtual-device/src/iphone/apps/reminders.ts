import type { AppDefinition, AppInstance, Env } from './app';
import { drawText, fillRect, hline } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import type { View } from '../../engine/view';

export const REMINDERS_BUNDLE_ID = 'com.apple.reminders';
export const REMINDER_TITLES = ['Buy milk', 'Call the dentist', 'Water the plants', 'Pay the electricity bill', 'Book train tickets'] as const;

const ROW_HEIGHT = 52;
const ORANGE = '#ff9500';

/**
 * A checklist: tapping a reminder's circle (or its row) marks it done; done rows carry the Selected trait.
 * Press and hold a row, then drag: it moves to where the finger lifts. Ids (`reminder-check-N`, N the
 * reminder's place in REMINDER_TITLES) follow the reminder, not the row.
 */
class RemindersApp implements AppInstance {
  private readonly done = new Set<number>();
  /** Reminder indices (into REMINDER_TITLES) from top to bottom. */
  private order: number[] = REMINDER_TITLES.map((_, i) => i);

  private move(reminder: number, toRow: number): void {
    const rest = this.order.filter((r) => r !== reminder);
    const at = Math.min(rest.length, Math.max(0, toRow));
    this.order = [...rest.slice(0, at), reminder, ...rest.slice(at)];
  }

  focusedInput(): null {
    return null;
  }

  reset(): void {
    // Completion is saved data: it survives termination.
  }

  windows(env: Env): View[] {
    const { theme } = env;
    const top = env.top + NAV_BAR_HEIGHT + 8;
    const rows: View[] = this.order.map((i, row) => {
      const title = REMINDER_TITLES[i];
      const done = this.done.has(i);
      const rect = { x: 0, y: top + row * ROW_HEIGHT, width: env.width, height: ROW_HEIGHT };
      const cy = rect.y + ROW_HEIGHT / 2;
      const toggle = (): void => {
        if (this.done.has(i)) this.done.delete(i);
        else this.done.add(i);
      };
      const circle = { x: 16, y: cy - 14, width: 28, height: 28 };
      const titleW = Math.ceil(measure(title, 17));
      return {
        uid: `reminders/row/${i}`,
        type: 'Cell',
        label: title,
        selected: done,
        rect,
        onTap: toggle,
        onHoldDrag: (_fromX, _fromY, _toX, toY) => this.move(i, Math.floor((toY - top) / ROW_HEIGHT)),
        draw: ({ ctx }) => hline(ctx, 60, env.width, rect.y + ROW_HEIGHT, theme.separator),
        children: [
          {
            uid: `reminders/row/${i}/check`,
            type: 'Button',
            label: done ? 'Completed' : 'Not completed',
            identifier: `reminder-check-${i}`,
            value: done ? '1' : '0',
            selected: done,
            rect: { x: circle.x - 8, y: rect.y, width: circle.width + 16, height: ROW_HEIGHT },
            onTap: toggle,
            draw: ({ ctx }) => {
              ctx.strokeStyle = done ? ORANGE : theme.tertiaryLabel;
              ctx.lineWidth = 1.5;
              ctx.beginPath();
              ctx.arc(circle.x + 14, cy, 11, 0, Math.PI * 2);
              ctx.stroke();
              if (done) {
                ctx.fillStyle = ORANGE;
                ctx.beginPath();
                ctx.arc(circle.x + 14, cy, 7.5, 0, Math.PI * 2);
                ctx.fill();
              }
            },
          },
          {
            uid: `reminders/row/${i}/title`,
            type: 'StaticText',
            label: title,
            value: title,
            rect: { x: 60, y: cy - 11, width: titleW, height: 22 },
            draw: ({ ctx }) => drawText(ctx, title, 60, cy, { size: 17, color: done ? theme.secondaryLabel : theme.label }),
          },
        ],
      };
    });
    const remaining = REMINDER_TITLES.length - this.done.size;
    const summary = `${remaining} remaining`;
    const sy = top + REMINDER_TITLES.length * ROW_HEIGHT + 30;
    const sw = Math.ceil(measure(summary, 15));
    return [
      {
        uid: 'reminders/window',
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx }) => fillRect(ctx, env.screen, theme.background),
        children: [
          navBar(env, { uid: 'reminders/navbar', title: 'Reminders' }),
          { uid: 'reminders/list', type: 'Table', rect: { x: 0, y: top, width: env.width, height: REMINDER_TITLES.length * ROW_HEIGHT }, children: rows },
          {
            uid: 'reminders/summary',
            type: 'StaticText',
            label: summary,
            value: summary,
            rect: { x: Math.round((env.width - sw) / 2), y: sy - 10, width: sw, height: 20 },
            draw: ({ ctx }) => drawText(ctx, summary, env.width / 2, sy, { size: 15, color: theme.secondaryLabel, align: 'center' }),
          },
        ],
      },
    ];
  }
}

export const remindersApp: AppDefinition = {
  bundleId: REMINDERS_BUNDLE_ID,
  name: 'Reminders',
  icon: { background: '#ffffff', foreground: ORANGE, letter: 'R' },
  create: () => new RemindersApp(),
};
