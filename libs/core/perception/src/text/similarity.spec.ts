import { compactText, normalizeSpaces, tokenize } from '@apex/port';
import { foldConfusables } from './normalize';
import { levenshtein, MIN_TEXT_SCORE, normalizedSimilarity, textMatchScore } from './similarity';

describe('normalization', () => {
  it('compacts punctuation, case and diacritics away', () => {
    expect(compactText('Wi-Fi')).toBe('wifi');
    expect(compactText('WiFi')).toBe('wifi');
    expect(compactText('Café · Menü!')).toBe('cafemenu');
    expect(compactText('Wi-Fi', true)).toBe('WiFi');
  });

  it('tokenizes on anything but letters and digits', () => {
    expect(tokenize('Privacy & Security')).toEqual(['privacy', 'security']);
    expect(tokenize('  iOS 18.2 ')).toEqual(['ios', '18', '2']);
  });

  it('collapses whitespace and folds case unless asked not to', () => {
    expect(normalizeSpaces('  Airplane \n Mode ')).toBe('airplane mode');
    expect(normalizeSpaces('  Airplane  Mode ', true)).toBe('Airplane Mode');
  });

  it('"Général" is the same text as "general" and "GÉNÉRAL", loosely and exactly (not when case counts)', () => {
    for (const other of ['general', 'GÉNÉRAL', 'GENERAL']) {
      expect(textMatchScore('Général', other)).toBe(1);
      expect(textMatchScore(other, 'Général', { exact: true })).toBe(1);
    }
    expect(textMatchScore('general', 'Général', { exact: true, caseSensitive: true })).toBe(0);
    expect(textMatchScore('Général', 'Général', { exact: true, caseSensitive: true })).toBe(1);
    expect(tokenize('Réglages Généraux')).toEqual(['reglages', 'generaux']);
  });

  it('folds the characters OCR confuses', () => {
    expect(foldConfusables('g00gle')).toBe(foldConfusables('google'));
    expect(foldConfusables('rnodern')).toBe('modem');
  });
});

describe('levenshtein', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
    expect(normalizedSimilarity('abcd', 'abcx')).toBeCloseTo(0.75);
  });
});

describe('textMatchScore', () => {
  it('treats punctuation and case as noise', () => {
    expect(textMatchScore('Wi-Fi', 'WiFi')).toBe(1);
    expect(textMatchScore('wifi', 'Wi-Fi')).toBe(1);
    expect(textMatchScore('GENERAL', 'General')).toBe(1);
  });

  it('respects caseSensitive', () => {
    expect(textMatchScore('general', 'General', { caseSensitive: true })).toBeLessThan(1);
    expect(textMatchScore('General', 'General', { caseSensitive: true })).toBe(1);
  });

  it('forgives one or two OCR slips in longer words', () => {
    expect(textMatchScore('Bluetooth', 'Bluet0oth', { ocr: true })).toBeGreaterThanOrEqual(0.9);
    expect(textMatchScore('Notifications', 'Notificatlons')).toBeGreaterThanOrEqual(MIN_TEXT_SCORE);
    expect(textMatchScore('Settings', 'Display')).toBeLessThan(MIN_TEXT_SCORE);
  });

  it('does not let short words drift into other words', () => {
    expect(textMatchScore('On', 'Or')).toBeLessThan(MIN_TEXT_SCORE);
    expect(textMatchScore('On', 'on')).toBe(1);
  });

  it('scores a phrase contained as whole words between 0.85 and 0.95', () => {
    const score = textMatchScore('Bluetooth', 'Bluetooth, On');
    expect(score).toBeGreaterThanOrEqual(0.85);
    expect(score).toBeLessThan(0.96);
    expect(textMatchScore('tooth', 'Bluetooth, On')).toBeLessThan(MIN_TEXT_SCORE);
  });

  it('exact requires the whole text (whitespace collapsed, case per caseSensitive)', () => {
    expect(textMatchScore('Airplane Mode', ' airplane   mode ', { exact: true })).toBe(1);
    expect(textMatchScore('Airplane Mode', 'airplane mode', { exact: true, caseSensitive: true })).toBe(0);
    expect(textMatchScore('Wi-Fi', 'WiFi', { exact: true })).toBe(0);
    expect(textMatchScore('Mode', 'Airplane Mode', { exact: true })).toBe(0);
  });
});
