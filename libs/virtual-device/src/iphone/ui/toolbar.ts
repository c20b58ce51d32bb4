import type { Env } from '../apps/app';
import { fillRect, hline } from '../../engine/render/paint';
import type { View } from '../../engine/view';

export const TOOLBAR_HEIGHT = 44;

/** Top edge of a bottom toolbar, above the home indicator. */
export function toolbarTop(env: Env): number {
  return env.height - env.bottom - TOOLBAR_HEIGHT;
}

/** A UIToolbar at the bottom of the screen: bar background down to the screen edge, hairline on top. */
export function toolbar(env: Env, uid: string, children: View[]): View {
  const { theme } = env;
  const top = toolbarTop(env);
  return {
    uid,
    type: 'Toolbar',
    rect: { x: 0, y: top, width: env.width, height: TOOLBAR_HEIGHT },
    opaque: true,
    draw: ({ ctx }) => {
      fillRect(ctx, { x: 0, y: top, width: env.width, height: env.height - top }, theme.bar);
      hline(ctx, 0, env.width, top, theme.barBorder);
    },
    children,
  };
}
