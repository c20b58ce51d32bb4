/** iOS system colours for one appearance. */
export interface Theme {
  appearance: 'light' | 'dark';
  /** Plain screens (Notes, Safari page). */
  background: string;
  /** Grouped tables (Settings) behind the cards. */
  groupedBackground: string;
  /** Cards / cells on a grouped background. */
  cell: string;
  bar: string;
  barBorder: string;
  label: string;
  secondaryLabel: string;
  tertiaryLabel: string;
  separator: string;
  tint: string;
  switchOn: string;
  switchOff: string;
  fieldBackground: string;
  keyboardBackground: string;
  key: string;
  specialKey: string;
  alertBackground: string;
  dim: string;
  statusBarOnScreen: string;
  /** Selected-text highlight. */
  selection: string;
}

export const LIGHT: Theme = {
  appearance: 'light',
  background: '#ffffff',
  groupedBackground: '#f2f2f7',
  cell: '#ffffff',
  bar: '#f9f9f9',
  barBorder: '#c6c6c8',
  label: '#000000',
  secondaryLabel: '#6c6c70',
  tertiaryLabel: '#a0a0a5',
  separator: '#c6c6c8',
  tint: '#007aff',
  switchOn: '#34c759',
  switchOff: '#e9e9ea',
  fieldBackground: '#e9e9eb',
  keyboardBackground: '#d1d3d9',
  key: '#ffffff',
  specialKey: '#abb0bc',
  alertBackground: '#f2f2f2',
  dim: 'rgba(0,0,0,0.3)',
  statusBarOnScreen: '#000000',
  selection: '#b3d7ff',
};

export const DARK: Theme = {
  appearance: 'dark',
  background: '#000000',
  groupedBackground: '#000000',
  cell: '#1c1c1e',
  bar: '#161616',
  barBorder: '#38383a',
  label: '#ffffff',
  secondaryLabel: '#a1a1a8',
  tertiaryLabel: '#6c6c70',
  separator: '#38383a',
  tint: '#0a84ff',
  switchOn: '#30d158',
  switchOff: '#39393d',
  fieldBackground: '#1c1c1e',
  keyboardBackground: '#2b2b2b',
  key: '#6b6b6b',
  specialKey: '#464646',
  alertBackground: '#2c2c2e',
  dim: 'rgba(0,0,0,0.5)',
  statusBarOnScreen: '#ffffff',
  selection: '#3f638b',
};

export function themeFor(appearance: 'light' | 'dark'): Theme {
  return appearance === 'dark' ? DARK : LIGHT;
}
