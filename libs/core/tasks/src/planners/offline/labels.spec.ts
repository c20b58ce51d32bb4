import { closeness, closestLabel, oneEditApart, squash } from './labels';

const labels = (items: string[]) => (target: string) => closestLabel(target, items, (l) => l);
const settings = labels(['Airplane Mode', 'Wi-Fi', 'Bluetooth', 'General', 'Privacy & Security', 'Display & Brightness', 'Screen Time', 'Home Screen', 'Date & Time']);

describe('label matching', () => {
  it('ignores case, punctuation, hyphens, spaces and "and"', () => {
    expect(squash('Wi-Fi')).toBe(squash('wifi'));
    expect(squash('Date and Time')).toBe(squash('Date & Time'));
    expect(settings('wifi')).toMatchObject({ kind: 'match', label: 'Wi-Fi' });
    expect(settings('AIRPLANE-MODE')).toMatchObject({ kind: 'match', label: 'Airplane Mode' });
    expect(settings('date and time')).toMatchObject({ kind: 'match', label: 'Date & Time' });
  });

  it('matches labels with diacritics without case or accents: "Général" is "general" and "GÉNÉRAL"', () => {
    expect(squash('Général')).toBe('general');
    expect(squash('GÉNÉRAL')).toBe('general');
    const french = labels(['Général', 'Réglages', 'Confidentialité et sécurité']);
    expect(french('general')).toMatchObject({ kind: 'match', label: 'Général' });
    expect(french('GÉNÉRAL')).toMatchObject({ kind: 'match', label: 'Général' });
    expect(french('reglages')).toMatchObject({ kind: 'match', label: 'Réglages' });
  });

  it('knows synonyms of system names', () => {
    expect(settings('flight mode')).toMatchObject({ kind: 'match', label: 'Airplane Mode' });
    expect(settings('WLAN')).toMatchObject({ kind: 'match', label: 'Wi-Fi' });
    expect(settings('brightness')).toMatchObject({ kind: 'match', label: 'Display & Brightness' });
  });

  it('takes the clearly closest label: a prefix before a typo before a word inside', () => {
    expect(settings('privacy')).toMatchObject({ kind: 'match', label: 'Privacy & Security' });
    expect(settings('Genral')).toMatchObject({ kind: 'match', label: 'General' });
    expect(settings('Bluetoth')).toMatchObject({ kind: 'match', label: 'Bluetooth' });
    expect(settings('screen')).toMatchObject({ kind: 'match', label: 'Screen Time' });
    expect(closeness('General', 'General')).toBeGreaterThan(closeness('Genral', 'General'));
  });

  it('names both when two labels are equally close, and never guesses', () => {
    expect(labels(['Photo 1', 'Photo 2', 'Favorites'])('photo')).toEqual({ kind: 'ambiguous', labels: ['Photo 1', 'Photo 2'] });
    expect(labels(['Wi-Fi', 'Wi-Fi'])('wifi')).toMatchObject({ kind: 'match' });
    expect(settings('flux capacitor')).toEqual({ kind: 'none' });
    expect(settings('Privacy & Secrets')).toEqual({ kind: 'none' });
    // Short names match only exactly.
    expect(settings('Wi')).toEqual({ kind: 'none' });
  });

  it('forgives one letter, not two', () => {
    expect(oneEditApart('setings', 'settings')).toBe(true);
    expect(oneEditApart('settnigs', 'settings')).toBe(true);
    expect(oneEditApart('setngs', 'settings')).toBe(false);
    expect(closeness('Blutoth', 'Bluetooth')).toBe(0);
  });

  it('lets a part of an app name the app, but not the app\'s other parts ("timer" is no name of the Alarms tab)', () => {
    expect(closeness('timer', 'Clock')).toBe(5);
    expect(closeness('alarms', 'Clock')).toBe(5);
    expect(closeness('timer', 'Alarms')).toBe(0);
    expect(closeness('timer', 'Stopwatch')).toBe(0);
    expect(labels(['World Clock', 'Alarms', 'Stopwatch', 'Timers'])('timer')).toMatchObject({ kind: 'match', label: 'Timers' });
  });
});
