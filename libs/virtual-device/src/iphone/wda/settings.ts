/** Session settings with WDA's defaults (WDA:Utilities/FBSettings.m, FBConfiguration.m `resetSessionSettings`). */
export const DEFAULT_SETTINGS = {
  shouldUseCompactResponses: true,
  elementResponseAttributes: 'type,label',
  mjpegServerScreenshotQuality: 25,
  mjpegServerFramerate: 10,
  mjpegScalingFactor: 100,
  mjpegFixOrientation: true,
  screenshotQuality: 3,
  keyboardAutocorrection: false,
  keyboardPrediction: false,
  snapshotMaxDepth: 50,
  useFirstMatch: false,
  boundElementsByIndex: false,
  reduceMotion: false,
  defaultActiveApplication: 'auto',
  activeAppDetectionPoint: '64.00,64.00',
  includeNonModalElements: false,
  defaultAlertAction: '',
  acceptAlertButtonSelector: '',
  dismissAlertButtonSelector: '',
  screenshotOrientation: 'auto',
  waitForIdleTimeout: 10,
  animationCoolOffTimeout: 2,
  maxTypingFrequency: 60,
  respectSystemAlerts: false,
  useClearTextShortcut: true,
  limitXPathContextScope: true,
  autoClickAlertSelector: '',
  includeHittableInPageSource: false,
  includeNativeFrameInPageSource: false,
  includeMinMaxValueInPageSource: false,
  includeCustomActionsInPageSource: false,
};

export type Settings = { -readonly [K in keyof typeof DEFAULT_SETTINGS]: (typeof DEFAULT_SETTINGS)[K] };

/** Applies the known keys whose value has the default's type; others are ignored, as WDA does. */
export function applySettings(settings: Settings, update: Record<string, unknown>): void {
  const target = settings as Record<string, unknown>;
  for (const [key, value] of Object.entries(update)) {
    if (Object.prototype.hasOwnProperty.call(DEFAULT_SETTINGS, key) && typeof value === typeof target[key]) target[key] = value;
  }
  if (settings.snapshotMaxDepth < 1 || settings.snapshotMaxDepth > 62) settings.snapshotMaxDepth = DEFAULT_SETTINGS.snapshotMaxDepth;
}
