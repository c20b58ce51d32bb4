import { dirname, join } from 'node:path';
import { canvasApi } from './canvas';

/**
 * The one font family the phone draws with: DejaVu Sans from the `dejavu-fonts-ttf` npm package, registered
 * under a private name so no system font can ever stand in (identical pixels on every machine).
 */
export const FONT_FAMILY = 'ApexPhoneSans';

let registered = false;

export function ensureFonts(): void {
  if (registered) return;
  const ttf = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const { GlobalFonts } = canvasApi();
  const regular = GlobalFonts.registerFromPath(join(ttf, 'DejaVuSans.ttf'), FONT_FAMILY);
  const bold = GlobalFonts.registerFromPath(join(ttf, 'DejaVuSans-Bold.ttf'), FONT_FAMILY);
  if (!regular || !bold) throw new Error(`could not register the DejaVu fonts from ${ttf}`);
  registered = true;
}

export type FontWeight = 'regular' | 'bold';

/** A CSS font string for `size` points (the context is already scaled to points). */
export function font(size: number, weight: FontWeight = 'regular'): string {
  return `${weight === 'bold' ? 'bold ' : ''}${size}px ${FONT_FAMILY}`;
}
