/**
 * Every bound on what a client may send, written once. The operation schemas use these and nothing else
 * checks them again (the primitives only check what needs the device, e.g. the real screen size).
 * Units are points (iOS) / density-independent pixels (Android) unless a name says otherwise.
 */

/** Larger than any phone or tablet screen in points; the primitives check the real screen. */
export const MAX_COORDINATE = 10_000;

export const MAX_DEVICE_ID_LENGTH = 128;

/** Bundle id (iOS) / package name (Android): a letter or digit, then letters, digits, `.`, `_`, `-`. */
export const MAX_APP_ID_LENGTH = 255;
export const APP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Characters input_text types in one call. */
export const MAX_TYPED_TEXT_LENGTH = 2_000;
/** Characters of a find_text query: it is compared with every text on the screen, and screen texts are short. */
export const MAX_SEARCH_TEXT_LENGTH = 500;
export const MAX_ICON_NAME_LENGTH = 100;
/**
 * Characters of a base64 find_icon template: an incompressible 256×256 RGBA PNG (the largest template
 * perception matches, `MAX_TEMPLATE_SIDE_PX`) is about 350 K characters.
 */
export const MAX_TEMPLATE_LENGTH = 400_000;

/** A swipe shorter than this is a flick the device may not register; longer is a drag, not a swipe. */
export const MIN_SWIPE_DURATION_MS = 50;
export const MAX_SWIPE_DURATION_MS = 5_000;

/** Depth of a pruned UI tree (root = 0); real screens nest a few dozen levels at most. */
export const MAX_TREE_DEPTH = 100;
export const MAX_DESCRIBED_ELEMENTS = 500;

/**
 * Viewers of one device's live screen at once (dashboard tabs, stream clients): they share one source, but each
 * costs an encoded frame's write per change.
 */
export const MAX_SCREEN_VIEWERS_PER_DEVICE = 10;

/** Narrowest screenshot a caller may ask for (and the narrowest the encoder shrinks to), in pixels. */
export const MIN_SCREENSHOT_WIDTH = 64;
/** Widest `maxWidth` a caller may ask for; the image is still capped at MAX_SCREENSHOT_SIDE. */
export const MAX_REQUESTED_SCREENSHOT_WIDTH = 4_096;
/** Raw bytes cap: base64 makes it 4/3 larger, which keeps an MCP result under 1 MB. */
export const MAX_SCREENSHOT_BYTES = 700 * 1024;
/** Longest side of a returned image in pixels: what model clients accept. */
export const MAX_SCREENSHOT_SIDE = 2_000;

/** A long press: shorter is a tap; longer than any menu needs. */
export const MIN_LONG_PRESS_MS = 100;
export const MAX_LONG_PRESS_MS = 10_000;
/** Press and hold before a swipe moves (drag and drop, reordering). */
export const MAX_SWIPE_HOLD_MS = 5_000;

/** Pinch scale: the fingers' spread at the end over their spread at the start (> 1 zooms in). */
export const MIN_PINCH_SCALE = 0.1;
export const MAX_PINCH_SCALE = 10;
export const MIN_PINCH_DURATION_MS = 100;
export const MAX_PINCH_DURATION_MS = 5_000;

/** Characters of a URL open_url sends: browsers handle far longer, links agents follow are short. */
export const MAX_URL_LENGTH = 2_048;
/** Schemes open_url refuses: they run code or read local files rather than open a page or an app. */
export const REFUSED_URL_SCHEMES = ['javascript', 'data', 'file', 'vbscript', 'blob'] as const;

/** Characters set_clipboard puts on the pasteboard. */
export const MAX_CLIPBOARD_TEXT_LENGTH = 10_000;
/** Characters of an app name for launch_app ("Settings") or of an alert button's label. */
export const MAX_APP_NAME_LENGTH = 100;
export const MAX_BUTTON_LABEL_LENGTH = 100;

/** wait_for: how long it waits by default and at most, and how often it reads the screen (a bounded rate). */
export const DEFAULT_WAIT_MS = 5_000;
export const MAX_WAIT_MS = 60_000;
export const WAIT_POLL_MS = 100;

/** Characters of a path on the Apex host (install_app, add_media). */
export const MAX_HOST_PATH_LENGTH = 4_096;
/** A photo or video add_media copies to the device. */
export const MAX_MEDIA_BYTES = 500 * 1024 * 1024;
/** background_app: how long the app may stay in the background before it comes back. */
export const MAX_BACKGROUND_SECONDS = 60;
/** push_notification: a title and body a banner shows; the payload fits in an APNs-sized 4 KB. */
export const MAX_NOTIFICATION_TITLE_LENGTH = 200;
export const MAX_NOTIFICATION_BODY_LENGTH = 2_000;
export const MAX_NOTIFICATION_PAYLOAD_BYTES = 4_096;
/** launch_app: arguments and environment variables passed to the app's process. */
export const MAX_LAUNCH_ARGUMENTS = 32;
export const MAX_LAUNCH_ENVIRONMENT = 32;
export const MAX_LAUNCH_VALUE_LENGTH = 1_000;
export const MAX_ENV_NAME_LENGTH = 128;
/** A BCP 47 language tag (fr, fr-FR, zh-Hant-TW): 2–3 letter language, then subtags. */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,3}$/;
/** get_logs: lines returned by default and at most, and the bytes of one answer (older lines are left out first). */
export const DEFAULT_LOG_ENTRIES = 100;
export const MAX_LOG_ENTRIES = 500;
export const MAX_LOG_BYTES = 64 * 1024;
/** Characters of one returned log message (a longer one is cut, marked with …). */
export const MAX_LOG_MESSAGE_CHARS = 2_000;
/** Lines read from a device in one get_logs: a source that never stops sending is cut off here. */
export const MAX_LOG_LINES_SCANNED = 200_000;
/** How far back a `since` in milliseconds may reach (7 days). */
export const MAX_LOG_LOOKBACK_MS = 7 * 24 * 3600 * 1000;
/** Characters of get_logs' `grep` text. */
export const MAX_LOG_GREP_LENGTH = 200;
/** list_crashes: reports listed at most (the newest). */
export const MAX_CRASHES_LISTED = 50;
/** get_crash: frames of the crashed thread, and characters of the report's own text. */
export const MAX_CRASH_FRAMES = 64;
export const MAX_CRASH_TEXT_CHARS = 32_000;

/**
 * How long a call waits at most for its device while the device is being prepared (the first build of an
 * iPhone's automation agent takes minutes): as long as discovery lets a preparation take. A face may wait less
 * (REST answers at once); the caller's own timeout or cancel ends the wait sooner.
 */
export const MAX_DEVICE_WAIT_MS = 10 * 60_000;
/** wait_for_device's default. */
export const DEFAULT_DEVICE_WAIT_MS = 2 * 60_000;
/** While one phase lasts, its progress is sent again this often (a client whose timeout resets on progress keeps waiting). */
export const DEVICE_WAIT_PROGRESS_EVERY_MS = 10_000;
