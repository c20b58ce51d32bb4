import { ApexError } from '@apex/errors';
import { compactText, type AppRef, type Platform } from '@apex/port';
import { APPLE_SYSTEM_APPS } from './system-apps';

// Names compare as @apex/port's `compactText` folds them: "app store" is "App Store", "reglages" "Réglages".

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** Up to three names nearest to `name`: those that contain it or it contains first, then by edit distance. */
export function closestNames(name: string, candidates: readonly string[], count = 3): string[] {
  const wanted = compactText(name);
  const score = (candidate: string) => {
    const other = compactText(candidate);
    const containment = other.includes(wanted) || wanted.includes(other) ? 0 : 1;
    return containment * 1_000 + editDistance(wanted, other);
  };
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, score: score(candidate) }))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

/** The apps a name is looked up in: the device's list when complete, else (iOS) its list and Apple's system apps. */
export function appsToSearch(platform: Platform, listed: { apps: AppRef[]; complete: boolean } | undefined): AppRef[] {
  const apps = [...(listed?.apps ?? [])];
  if (listed?.complete || platform !== 'ios') return apps;
  for (const [name, appId] of Object.entries(APPLE_SYSTEM_APPS)) {
    if (!apps.some((app) => app.appId === appId)) apps.push({ appId, name });
  }
  return apps;
}

/** The app whose name matches `name` (case and spacing aside), else `app_not_found` with the closest names. */
export function appIdForName(deviceId: string, name: string, apps: readonly AppRef[]): string {
  const match = apps.find((app) => app.name !== undefined && compactText(app.name) === compactText(name));
  if (match) return match.appId;
  const names = apps.flatMap((app) => (app.name === undefined ? [] : [app.name]));
  const closest = closestNames(name, names);
  throw new ApexError('app_not_found', `No app named "${name}" on device ${deviceId}.`, {
    hint: closest.length > 0 ? `Closest names: ${closest.join(', ')}. See list_apps.` : 'See list_apps for app ids, then use appId.',
  });
}
