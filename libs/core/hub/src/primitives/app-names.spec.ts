import { appIdForName, closestNames } from './app-names';

describe('app names', () => {
  const apps = [
    { appId: 'com.apple.Preferences', name: 'Réglages' },
    { appId: 'com.example.general', name: 'Général' },
  ];

  it('finds an app by its name without case, spaces, punctuation or accents: "Général" is "general" and "GÉNÉRAL"', () => {
    expect(appIdForName('phone', 'general', apps)).toBe('com.example.general');
    expect(appIdForName('phone', 'GÉNÉRAL', apps)).toBe('com.example.general');
    expect(appIdForName('phone', 'reglages', apps)).toBe('com.apple.Preferences');
  });

  it('names the closest names the same way', () => {
    expect(closestNames('generaux', apps.map((a) => a.name))[0]).toBe('Général');
  });
});
