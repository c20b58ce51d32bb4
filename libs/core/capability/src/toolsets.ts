import { ApexError, echoName } from '@apex/errors';
import { TOOLSETS, type AnyOperation, type Toolset } from './define-operation';

/** What each toolset is for, as list_toolsets and the README say it. */
export const TOOLSET_DESCRIPTIONS: Readonly<Record<Toolset, string>> = {
  devices: 'Which devices there are and their state.',
  observe: 'See the screen: describe it, screenshot it, find text, wait for something.',
  act: 'Operate the screen: tap, swipe, type, press buttons, answer alerts, open an app.',
  inspect: 'Look deeper: the whole UI tree, icons by name or template.',
  gestures: 'More gestures: double tap, long press, pinch.',
  apps: "Manage apps: list, close, open a URL; the developer's loop (install, reset, state, …).",
  environment: "The device's settings and surroundings: orientation, appearance, lock, clipboard, location, permissions, …",
  evidence: 'What to keep from a run: logs, crashes, recordings.',
  tasks: 'Agent tasks: give a goal in words, follow and cancel it.',
  flows: 'Replay flows, and export a finished task as one.',
};

/**
 * The lean set a client gets unless it asks for more: what an agent operating an app needs (issue 33 budget:
 * its tools/list at most 15,000 characters). The others are one `enable_toolset` (or `--toolsets`) away.
 */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['devices', 'observe', 'act'];

/** Words that stand for several toolsets, as GitHub's MCP server has them. */
export const TOOLSET_KEYWORDS = ['default', 'all'] as const;

export function isToolset(name: string): name is Toolset {
  return (TOOLSETS as readonly string[]).includes(name);
}

/** A comma-separated list as given on a command line or in an environment variable (`observe, act`). */
export function splitToolsetList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * The toolsets that `names` stand for (`default` and `all` expanded, duplicates dropped, in TOOLSETS order).
 * An unknown name or an empty list: `invalid_argument` naming the valid ones; `source`, when given, says where
 * the names came from (`--toolsets`, `APEX_TOOLSETS`).
 */
export function resolveToolsets(names: readonly string[], source?: string): Toolset[] {
  const valid = [...TOOLSETS, ...TOOLSET_KEYWORDS].join(', ');
  if (names.length === 0) {
    throw new ApexError('invalid_argument', `${source ?? 'The list'} names no toolset; valid: ${valid}.`, { hint: `Name one or more, comma-separated (e.g. "default,apps").` });
  }
  const wanted = new Set<Toolset>();
  for (const name of names) {
    if (name === 'all') TOOLSETS.forEach((t) => wanted.add(t));
    else if (name === 'default') DEFAULT_TOOLSETS.forEach((t) => wanted.add(t));
    else if (isToolset(name)) wanted.add(name);
    else {
      throw new ApexError('invalid_argument', `${source ? `${source}: u` : 'U'}nknown toolset "${echoName(name)}"; valid: ${valid}.`, { hint: `Use names from: ${valid}.` });
    }
  }
  return TOOLSETS.filter((t) => wanted.has(t));
}

/** The operations of the catalog in the given toolsets, in catalog order. */
export function operationsIn(operations: readonly AnyOperation[], toolsets: Iterable<Toolset>): AnyOperation[] {
  const chosen = new Set(toolsets);
  return operations.filter((op) => chosen.has(op.toolset));
}
