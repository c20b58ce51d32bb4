/**
 * Words no client may ever see from Apex: driver and protocol names, raw connection errors, stack frames.
 * The leakage-guard tests run every text they produce through this.
 */
const FORBIDDEN_IN_CLIENT_TEXT = /XCUIElement|WebDriverAgent|\bWDA\b|Appium|xcuitest|element-6066|ECONNREFUSED|\n\s+at /i;

export function leakedWordsIn(text: string): string[] {
  const found = new RegExp(FORBIDDEN_IN_CLIENT_TEXT.source, 'gi');
  return [...text.matchAll(found)].map((m) => m[0]);
}
