import { findElement, matchScore, observationOf, screenHasText } from './observation';

describe('the agent\'s text matching', () => {
  const screen = observationOf({
    app: { appId: 'com.apple.Preferences', name: 'Réglages' },
    screen: { width: 393, height: 852, scale: 3 },
    orientation: 'portrait',
    keyboardVisible: false,
    elements: [
      { ref: 'e1', nodeId: 'n1', role: 'cell', label: 'Général', center: { x: 196, y: 200 } },
      { ref: 'e2', nodeId: 'n2', role: 'text', label: 'Luminosité', center: { x: 196, y: 280 } },
      { ref: 'e3', nodeId: 'n3', role: 'slider', label: 'Luminosité', center: { x: 196, y: 300 } },
    ],
    omittedElements: 0,
    refs: {},
    staticText: [{ text: 'Réglages', center: { x: 196, y: 100 } }],
    ocrText: [],
    text: 'Réglages (com.apple.Preferences) · 393×852 pt\ne1 cell "Général" @196,200',
  });

  it('"Général" is the same text as "general" and "GÉNÉRAL"', () => {
    expect(matchScore('general', 'Général')).toBe(3);
    expect(matchScore('GÉNÉRAL', 'Général')).toBe(3);
    expect(matchScore('Général', 'general')).toBe(3);
    expect(findElement(screen, 'general')?.ref).toBe('e1');
    expect(screenHasText(screen, 'GENERAL')).toBe(true);
    expect(screenHasText(screen, 'reglages')).toBe(true);
  });

  it('ranks an element of an interactive role (the one set every layer uses) above another equally named', () => {
    expect(findElement(screen, 'luminosite')?.ref).toBe('e3');
  });
});
