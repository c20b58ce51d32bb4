import { invalidArgument } from '@apex/errors';

/**
 * A template larger than this (pixels, either side, as sent) is not an icon: 85 pt at 3 px/pt, already larger
 * than any toolbar or tab-bar glyph. It also bounds the matching work (~quadratic in the side).
 */
export const MAX_TEMPLATE_SIDE_PX = 256;

/** Throws `invalid_argument` naming the limit when a template image is larger than an icon can be. */
export function checkTemplateSize(width: number, height: number): void {
  if (width <= MAX_TEMPLATE_SIDE_PX && height <= MAX_TEMPLATE_SIDE_PX) return;
  const limit = `${MAX_TEMPLATE_SIDE_PX}×${MAX_TEMPLATE_SIDE_PX}`;
  throw invalidArgument(
    `template is ${width}×${height} pixels; an icon template may be at most ${limit} pixels.`,
    [{ path: 'template', message: `must be at most ${limit} pixels` }],
    'Crop the template tightly around the icon, at the pixel scale of the device’s screenshots.',
  );
}
