/**
 * The default time limits, the one place they are written. The hub owns them: it aborts a driver call
 * through the call's `AbortSignal` when its limit runs out. A driver bounds only its TCP connect.
 */
export const TIMEOUT_DEFAULTS = {
  /** One action (tap, swipe, …). */
  actionMs: 15_000,
  /** A slow action (screenshot, UI tree); never below `actionMs`. */
  slowActionMs: 30_000,
  /** One health probe. */
  probeMs: 3_000,
  /** One TCP connect to the device's automation server. */
  connectMs: 3_000,
} as const;
