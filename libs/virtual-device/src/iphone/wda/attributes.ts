import type { ElementType, PhoneElement, Rect } from '../model';

/**
 * WDA's view of an element's attributes (WDA:Categories/XCUIElement+FBWebDriverAttributes.m): the one place
 * where the name/label/value fallbacks live, shared by the XML/JSON sources, the locators and element commands.
 */

const TEXT_FIELDS: ReadonlySet<ElementType> = new Set(['TextField', 'SecureTextField']);
const TEXT_INPUTS: ReadonlySet<ElementType> = new Set(['TextField', 'SecureTextField', 'SearchField', 'TextView']);

export const TYPE_PREFIX = 'XCUIElementType';

export function isTextInput(type: ElementType): boolean {
  return TEXT_INPUTS.has(type);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** NSString.boolValue: a leading Y/y/T/t or a non-zero digit (after sign and zeros) is YES. */
function nsBoolValue(value: string | undefined): boolean {
  if (value === undefined) return false;
  return /^\s*([YyTt]|[+-]?0*[1-9])/.test(value);
}

export function wdType(element: PhoneElement): string {
  return TYPE_PREFIX + element.type;
}

/** The accessibility identifier, else the label; empty means absent. */
export function wdName(element: PhoneElement): string | null {
  return nonEmpty(element.identifier) ?? nonEmpty(element.label) ?? null;
}

/** Text fields keep an empty label; every other element reports an empty label as absent. */
export function wdLabel(element: PhoneElement): string | null {
  if (TEXT_FIELDS.has(element.type)) return element.label ?? '';
  return nonEmpty(element.label) ?? null;
}

export function wdValue(element: PhoneElement): string | null {
  const own = nonEmpty(element.value);
  switch (element.type) {
    case 'StaticText':
      return own ?? nonEmpty(element.label) ?? null;
    case 'Button':
      return own ?? (element.selected ? '1' : null);
    case 'Switch':
      return nsBoolValue(own) ? '1' : '0';
    case 'TextField':
    case 'SecureTextField':
    case 'TextView':
      return own ?? nonEmpty(element.placeholder) ?? null;
    default:
      return own ?? null;
  }
}

/** WDA's text: value, else label, else "". */
export function wdText(element: PhoneElement): string {
  return wdValue(element) ?? nonEmpty(wdLabel(element) ?? undefined) ?? '';
}

export function wdPlaceholder(element: PhoneElement): string | null {
  return isTextInput(element.type) ? (nonEmpty(element.placeholder) ?? null) : null;
}

/** CGRectIntegral: the smallest integral rect containing the frame (tolerant of float noise). */
export function integralRect(rect: Rect): Rect {
  const clean = (n: number) => Math.round(n * 1e6) / 1e6;
  const x = Math.floor(clean(rect.x));
  const y = Math.floor(clean(rect.y));
  const right = Math.ceil(clean(rect.x + rect.width));
  const bottom = Math.ceil(clean(rect.y + rect.height));
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

export function wdTraits(element: PhoneElement): string {
  return element.traits.join(', ');
}

/** NSStringFromCGRect of an integral rect: "{{x, y}, {w, h}}". */
export function frameString(rect: Rect): string {
  return `{{${rect.x}, ${rect.y}}, {${rect.width}, ${rect.height}}}`;
}

export function centerOf(rect: Rect): { x: number; y: number } {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}
