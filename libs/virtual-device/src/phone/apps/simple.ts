import type { AppDefinition, AppIcon, AppInstance, Env } from './app';
import { drawText } from '../render/paint';
import { measure } from '../render/measure';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import type { View } from '../view';

/** A titled screen with a few lines of text: enough for the home grid to feel real. */
class SimpleApp implements AppInstance {
  constructor(
    private readonly key: string,
    private readonly name: string,
    private readonly lines: readonly string[],
  ) {}

  focusedInput(): null {
    return null;
  }

  reset(): void {
    // Nothing transient.
  }

  windows(env: Env): View[] {
    const top = env.top + NAV_BAR_HEIGHT + 40;
    const texts: View[] = this.lines.map((line, i) => {
      const w = Math.ceil(measure(line, 17));
      const cy = top + i * 32;
      return {
        uid: `${this.key}/line/${i}`,
        type: 'StaticText',
        label: line,
        value: line,
        rect: { x: Math.round((env.width - w) / 2), y: cy - 11, width: w, height: 22 },
        draw: ({ ctx, theme }) => drawText(ctx, line, env.width / 2, cy, { size: 17, color: i === 0 ? theme.label : theme.secondaryLabel, align: 'center' }),
      };
    });
    return [
      {
        uid: `${this.key}/window`,
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx, theme }) => {
          ctx.fillStyle = theme.background;
          ctx.fillRect(0, 0, env.width, env.height);
        },
        children: [navBar(env, { uid: `${this.key}/navbar`, title: this.name }), ...texts],
      },
    ];
  }
}

export function simpleApp(bundleId: string, name: string, icon: AppIcon, lines: readonly string[]): AppDefinition {
  const key = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return { bundleId, name, icon, create: () => new SimpleApp(key, name, lines) };
}
