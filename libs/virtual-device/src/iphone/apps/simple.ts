import type { AppDefinition, AppIcon, AppInstance, Env } from './app';
import { drawText, fillRect, hline } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import type { View } from '../../engine/view';

/** One screen of a simple app: a title and a few lines of text. */
export interface SimpleScreen {
  title: string;
  lines: readonly string[];
}

const TAB_BAR_HEIGHT = 49;

/**
 * A titled screen with a few lines of text, optionally several of them behind a tab bar (the selected tab's
 * button carries the "Selected" trait): enough for the home grid to feel real.
 */
class SimpleApp implements AppInstance {
  private tab = 0;

  constructor(
    private readonly key: string,
    private readonly screens: readonly SimpleScreen[],
    private readonly tabbed: boolean,
  ) {}

  focusedInput(): null {
    return null;
  }

  reset(): void {
    this.tab = 0;
  }

  windows(env: Env): View[] {
    const screen = this.screens[this.tab];
    const top = env.top + NAV_BAR_HEIGHT + 40;
    const texts: View[] = screen.lines.map((line, i) => {
      const w = Math.ceil(measure(line, 17));
      const cy = top + i * 32;
      return {
        uid: `${this.key}/line/${this.tab}/${i}`,
        type: 'StaticText',
        label: line,
        value: line,
        rect: { x: Math.round((env.width - w) / 2), y: cy - 11, width: w, height: 22 },
        draw: ({ ctx, theme }) => drawText(ctx, line, env.width / 2, cy, { size: 17, color: i === 0 ? theme.label : theme.secondaryLabel, align: 'center' }),
      };
    });
    const children: View[] = [navBar(env, { uid: `${this.key}/navbar`, title: screen.title }), ...texts];
    if (this.tabbed) children.push(this.tabBar(env));
    return [
      {
        uid: `${this.key}/window`,
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx, theme }) => fillRect(ctx, env.screen, theme.background),
        children,
      },
    ];
  }

  private tabBar(env: Env): View {
    const { theme } = env;
    const y = env.height - env.bottom - TAB_BAR_HEIGHT;
    const slot = env.width / this.screens.length;
    return {
      uid: `${this.key}/tabbar`,
      type: 'TabBar',
      label: 'Tab Bar',
      rect: { x: 0, y, width: env.width, height: TAB_BAR_HEIGHT },
      opaque: true,
      draw: ({ ctx }) => {
        fillRect(ctx, { x: 0, y, width: env.width, height: env.height - y }, theme.bar);
        hline(ctx, 0, env.width, y, theme.barBorder);
      },
      children: this.screens.map((s, i): View => {
        const selected = i === this.tab;
        const cx = slot * i + slot / 2;
        const color = selected ? theme.tint : theme.secondaryLabel;
        return {
          uid: `${this.key}/tab/${i}`,
          type: 'Button',
          label: s.title,
          selected,
          rect: { x: slot * i, y, width: slot, height: TAB_BAR_HEIGHT },
          onTap: () => (this.tab = i),
          draw: ({ ctx }) => {
            ctx.fillStyle = color;
            ctx.beginPath();
            ctx.arc(cx, y + 17, selected ? 9 : 8, 0, Math.PI * 2);
            if (selected) ctx.fill();
            else {
              ctx.strokeStyle = color;
              ctx.lineWidth = 2;
              ctx.stroke();
            }
            drawText(ctx, s.title, cx, y + 38, { size: 10, color, align: 'center' });
          },
        };
      }),
    };
  }
}

/** An app of one screen (`lines`) or of several tabs (`tabs`, first one selected). */
export function simpleApp(bundleId: string, name: string, icon: AppIcon, content: readonly string[] | readonly SimpleScreen[]): AppDefinition {
  const key = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const tabbed = content.length > 0 && typeof content[0] !== 'string';
  const screens: SimpleScreen[] = tabbed ? [...(content as readonly SimpleScreen[])] : [{ title: name, lines: content as readonly string[] }];
  return { bundleId, name, icon, create: () => new SimpleApp(key, screens, tabbed) };
}
