import type { Env } from '../apps/app';
import { drawChevron, drawText, fillRect, hline } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import type { View } from '../../engine/view';

export interface BarButton {
  label: string;
  onTap(): void;
  bold?: boolean;
}

export interface NavBarOptions {
  uid: string;
  title: string;
  /** Root pages show a big left-aligned title. */
  large?: boolean;
  back?: BarButton;
  right?: BarButton;
  /** Extra views inside the bar (e.g. unlabeled icon buttons). */
  extra?: View[];
}

export const NAV_BAR_HEIGHT = 44;
export const LARGE_NAV_BAR_HEIGHT = 52;

export function navBarHeight(large?: boolean): number {
  return large ? LARGE_NAV_BAR_HEIGHT : NAV_BAR_HEIGHT;
}

/** A UINavigationBar under the status bar: back button, title, optional right button. */
export function navBar(env: Env, o: NavBarOptions): View {
  const { theme } = env;
  const height = navBarHeight(o.large);
  const rect = { x: 0, y: env.top, width: env.width, height };
  const children: View[] = [];
  const cy = env.top + height / 2;
  if (o.back) {
    const back = o.back;
    const w = 8 + 12 + 6 + measure(back.label, 17) + 8;
    children.push({
      uid: `${o.uid}/back`,
      type: 'Button',
      label: back.label,
      rect: { x: 0, y: env.top, width: w, height },
      onTap: () => back.onTap(),
      draw: ({ ctx }) => {
        drawChevron(ctx, 16, cy, theme.tint, 9, 'left');
        drawText(ctx, back.label, 26, cy, { size: 17, color: theme.tint });
      },
    });
  }
  if (o.large) {
    children.push({
      uid: `${o.uid}/title`,
      type: 'StaticText',
      label: o.title,
      value: o.title,
      rect: { x: 16, y: env.top + 4, width: Math.ceil(measure(o.title, 32, 'bold')), height: 44 },
      traits: ['Header'],
      draw: ({ ctx }) => drawText(ctx, o.title, 16, env.top + 26, { size: 32, color: theme.label, weight: 'bold' }),
    });
  } else {
    const tw = Math.ceil(measure(o.title, 17, 'bold'));
    children.push({
      uid: `${o.uid}/title`,
      type: 'StaticText',
      label: o.title,
      value: o.title,
      rect: { x: Math.round((env.width - tw) / 2), y: env.top + 11, width: tw, height: 22 },
      traits: ['Header'],
      draw: ({ ctx }) => drawText(ctx, o.title, env.width / 2, cy, { size: 17, color: theme.label, weight: 'bold', align: 'center' }),
    });
  }
  if (o.right) {
    const right = o.right;
    const w = Math.ceil(measure(right.label, 17, right.bold ? 'bold' : 'regular')) + 32;
    children.push({
      uid: `${o.uid}/right`,
      type: 'Button',
      label: right.label,
      rect: { x: env.width - w, y: env.top, width: w, height },
      onTap: () => right.onTap(),
      draw: ({ ctx }) =>
        drawText(ctx, right.label, env.width - 16, cy, { size: 17, color: theme.tint, weight: right.bold ? 'bold' : 'regular', align: 'right' }),
    });
  }
  children.push(...(o.extra ?? []));
  return {
    uid: o.uid,
    type: 'NavigationBar',
    identifier: o.title,
    label: o.title,
    rect,
    opaque: true,
    draw: ({ ctx }) => {
      // The bar also covers the status bar area so scrolled content never shows behind the clock.
      fillRect(ctx, { x: 0, y: 0, width: env.width, height: env.top + height }, o.large ? theme.groupedBackground : theme.bar);
      if (!o.large) hline(ctx, 0, env.width, env.top + height, theme.barBorder);
    },
    children,
  };
}


