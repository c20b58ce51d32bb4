import { lineOf } from '../ocr/ocr-service';
import type { OcrPage, OcrWord } from '../ocr/ocr-types';
import { SCREEN, settingsTree } from '../testing/ui-nodes';
import { findTextInOcr, findTextInTree } from './text-finders';

function word(text: string, x: number, y: number, confidence = 0.95): OcrWord {
  return { text, confidence, bounds: { x, y, width: text.length * 8, height: 16 } };
}

const PAGE: OcrPage = {
  lines: [
    lineOf([word('Welcome', 20, 140), word('to', 90, 140), word('Apex', 110, 140)]),
    lineOf([word('Turn', 20, 200), word('on', 60, 200), word('WiFi', 82, 200, 0.8), word('now', 120, 200)]),
    lineOf([word('Bluet0oth', 20, 260, 0.9)]),
  ],
};

describe('findTextInTree', () => {
  it('matches visible on-screen nodes once, preferring the tighter node for nested duplicates', () => {
    const matches = findTextInTree(settingsTree(), SCREEN, { text: 'wifi' });
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ text: 'Wi-Fi', source: 'ui-tree', confidence: 1 });
    expect(matches[0].bounds).toEqual({ x: 60, y: 176, width: 120, height: 20 });
  });

  it('ignores nodes scrolled off screen and respects a region', () => {
    expect(findTextInTree(settingsTree(), SCREEN, { text: 'Far Away' })).toEqual([]);
    const inRegion = findTextInTree(settingsTree(), SCREEN, { text: 'Bluetooth', region: { x: 0, y: 0, width: 393, height: 150 } });
    expect(inRegion).toEqual([]);
  });

  it('honours exact and caseSensitive', () => {
    expect(findTextInTree(settingsTree(), SCREEN, { text: 'Airplane', exact: true })).toEqual([]);
    expect(findTextInTree(settingsTree(), SCREEN, { text: 'airplane mode', exact: true })).not.toEqual([]);
    expect(findTextInTree(settingsTree(), SCREEN, { text: 'airplane mode', exact: true, caseSensitive: true })).toEqual([]);
  });
});

describe('findTextInOcr', () => {
  it('finds a phrase spanning several words on one line, with the union of their boxes', () => {
    const [match] = findTextInOcr(PAGE, { text: 'welcome to apex' });
    expect(match).toMatchObject({ text: 'Welcome to Apex', source: 'ocr' });
    expect(match.bounds).toEqual({ x: 20, y: 140, width: 122, height: 16 });
    expect(match.confidence).toBeCloseTo(0.95, 2);
  });

  it('tolerates punctuation and OCR slips; confidence is match quality × OCR confidence', () => {
    const [wifi] = findTextInOcr(PAGE, { text: 'Wi-Fi' });
    expect(wifi.text).toBe('WiFi');
    expect(wifi.confidence).toBeCloseTo(0.8, 2);
    const [bluetooth] = findTextInOcr(PAGE, { text: 'Bluetooth' });
    expect(bluetooth.text).toBe('Bluet0oth');
    expect(bluetooth.confidence).toBeLessThan(0.9);
    expect(bluetooth.confidence).toBeGreaterThan(0.75);
  });

  it('returns nothing for text that is not there, and only whole-text equality with exact', () => {
    expect(findTextInOcr(PAGE, { text: 'Cellular' })).toEqual([]);
    expect(findTextInOcr(PAGE, { text: 'Welcome to', exact: true })[0]?.text).toBe('Welcome to');
    expect(findTextInOcr(PAGE, { text: 'WELCOME', exact: true, caseSensitive: true })).toEqual([]);
  });
});
