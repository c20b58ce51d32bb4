import type { Phone, PhoneElement, Rect } from '../iphone/model';

/** Helpers for the phone's specs: find and tap elements by what they show. */

export function allElements(root: PhoneElement): PhoneElement[] {
  return [root, ...root.children.flatMap(allElements)];
}

export function findElement(phone: Phone, match: (e: PhoneElement) => boolean): PhoneElement | undefined {
  return allElements(phone.snapshot()).find(match);
}

export function element(phone: Phone, match: (e: PhoneElement) => boolean, what = 'element'): PhoneElement {
  const found = findElement(phone, match);
  if (!found) throw new Error(`no ${what} on screen`);
  return found;
}

export const byLabel =
  (label: string, type?: PhoneElement['type']) =>
  (e: PhoneElement): boolean =>
    e.label === label && (type === undefined || e.type === type);

export function center(r: Rect): { x: number; y: number } {
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

export function tapElement(phone: Phone, e: PhoneElement): void {
  const c = center(e.rect);
  phone.tap(c.x, c.y);
}

/** True when the colour is clearly green (the switch's "on" track). */
export function isGreen([r, g, b]: number[]): boolean {
  return g > 150 && r < 120 && b < 140;
}
