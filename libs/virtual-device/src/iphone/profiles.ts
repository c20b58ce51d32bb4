import type { PhoneProfile } from './model';

/** The devices the virtual phone can pretend to be, by profile id. */
export const PROFILES: Readonly<Record<string, PhoneProfile>> = Object.freeze({
  'iphone-15': {
    id: 'iphone-15',
    model: 'iPhone 15',
    modelNumber: 'MTLR3LL/A',
    width: 393,
    height: 852,
    scale: 3,
    statusBarHeight: 54,
    osVersion: '17.5',
  },
  'iphone-15-plus': {
    id: 'iphone-15-plus',
    model: 'iPhone 15 Plus',
    modelNumber: 'MU0X3LL/A',
    width: 430,
    height: 932,
    scale: 3,
    statusBarHeight: 54,
    osVersion: '17.5',
    homeScreenTurns: true,
  },
  'iphone-se': {
    id: 'iphone-se',
    model: 'iPhone SE (3rd generation)',
    modelNumber: 'MMXN3LL/A',
    width: 375,
    height: 667,
    scale: 2,
    statusBarHeight: 20,
    osVersion: '17.5',
  },
});

export const DEFAULT_PROFILE_ID = 'iphone-15';

/** Phones without a home button have a home indicator bar and rounded corners at the bottom. */
export function hasHomeIndicator(profile: PhoneProfile): boolean {
  return profile.statusBarHeight > 20;
}
