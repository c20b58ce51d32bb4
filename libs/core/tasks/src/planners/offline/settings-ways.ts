import type { Observation } from '../../agent/observation';
import { locateOne, type Spot } from './screen';

/** Rows taken on the way to one switch before scrolling for it instead. */
const MAX_WAYS = 3;

/**
 * Where settings keep a switch (or a page) that their first screen does not show, as the rows on the way are labelled
 * (Android: Settings → Network & internet → Internet → Wi-Fi). The one place for this knowledge; platforms
 * whose first screen shows the switch never need it.
 */
const WAYS: ReadonlyArray<{ target: RegExp; rows: readonly string[] }> = [
  { target: /^(?:wi-?fi|wlan|wireless)$/i, rows: ['Network & internet', 'Internet'] },
  { target: /^(?:airplane|aeroplane|flight)\s*mode$/i, rows: ['Network & internet'] },
  { target: /^mobile\s*data$/i, rows: ['Network & internet', 'Internet'] },
  { target: /^(?:use\s+)?bluetooth$/i, rows: ['Connected devices', 'Bluetooth'] },
  { target: /^dark\s*(?:theme|mode)$/i, rows: ['Display'] },
  { target: /^auto[-\s]?rotat(?:e|ion)(?:\s+screen)?$/i, rows: ['Display'] },
  { target: /^adaptive\s+brightness$/i, rows: ['Display'] },
  // Pages, for "take me to the X page".
  { target: /^internet$/i, rows: ['Network & internet'] },
  { target: /^about$/i, rows: ['General'] },
];

/** Whether settings keep `target`'s switch below their first screen (so a page above may lead to it). */
export function hasWay(target: string): boolean {
  return WAYS.some((w) => w.target.test(target.trim()));
}

/** The row on this screen that leads towards `target`'s switch, not taken before; undefined when none. */
export function wayTowards(obs: Observation, target: string, taken: readonly string[]): Spot | undefined {
  if (taken.length >= MAX_WAYS) return undefined;
  const rows = WAYS.find((w) => w.target.test(target.trim()))?.rows ?? [];
  for (const row of rows) {
    if (taken.includes(row)) continue;
    const spot = locateOne(obs, row, { minCloseness: 6 });
    if (spot) return { ...spot, label: row };
  }
  return undefined;
}
