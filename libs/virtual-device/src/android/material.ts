import type { Theme } from '../engine/render/theme';

/**
 * Material 3 colours of a Pixel (baseline blue scheme), as the engine's theme slots: `tint` is the primary
 * colour, `cell` the surface of cards, `groupedBackground` the screen behind lists.
 */
export const MATERIAL_LIGHT: Theme = {
  appearance: 'light',
  background: '#fefbff',
  groupedBackground: '#f3f3fa',
  cell: '#ffffff',
  bar: '#f0f0f7',
  barBorder: '#c5c6d0',
  label: '#1a1b20',
  secondaryLabel: '#44464f',
  tertiaryLabel: '#75777f',
  separator: '#c5c6d0',
  tint: '#3d5ba9',
  switchOn: '#3d5ba9',
  switchOff: '#e1e2ec',
  fieldBackground: '#e8e7ef',
  keyboardBackground: '#e9eef6',
  key: '#ffffff',
  specialKey: '#ccd5e3',
  alertBackground: '#eeedf4',
  dim: 'rgba(0,0,0,0.32)',
  statusBarOnScreen: '#1a1b20',
  selection: '#b4c5ff',
};

export const MATERIAL_DARK: Theme = {
  appearance: 'dark',
  background: '#121318',
  groupedBackground: '#121318',
  cell: '#1e1f25',
  bar: '#1e1f25',
  barBorder: '#44464f',
  label: '#e3e2e9',
  secondaryLabel: '#c5c6d0',
  tertiaryLabel: '#8f9099',
  separator: '#44464f',
  tint: '#b4c5ff',
  switchOn: '#b4c5ff',
  switchOff: '#44464f',
  fieldBackground: '#292a2f',
  keyboardBackground: '#1f2024',
  key: '#3a3b40',
  specialKey: '#2a3547',
  alertBackground: '#292a2f',
  dim: 'rgba(0,0,0,0.6)',
  statusBarOnScreen: '#e3e2e9',
  selection: '#3d5ba9',
};

export function materialTheme(dark: boolean): Theme {
  return dark ? MATERIAL_DARK : MATERIAL_LIGHT;
}
