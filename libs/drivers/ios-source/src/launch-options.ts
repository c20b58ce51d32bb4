/**
 * The launch arguments iOS reads an app's language and region from (Apple's "Testing specific languages and
 * regions": `-AppleLanguages (fr)`, `-AppleLocale fr_FR`), for a BCP 47 tag such as `fr-FR`.
 */
export function localeArguments(locale: string): string[] {
  const tag = locale.replace(/_/g, '-');
  return ['-AppleLanguages', `(${tag})`, '-AppleLocale', tag.replace(/-/g, '_')];
}

/** XCUIApplicationState → neutral words; 0 ("unknown") is what the agent answers for an app that is not installed. */
export function appStateOf(value: unknown): 'notInstalled' | 'notRunning' | 'background' | 'foreground' {
  switch (Number(value)) {
    case 0:
      return 'notInstalled';
    case 2:
    case 3:
      return 'background';
    case 4:
      return 'foreground';
    default:
      return 'notRunning';
  }
}
