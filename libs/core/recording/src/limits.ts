/** Every bound of screen recording, written once (the operation schemas and the service use these). */

export const RECORDING_FPS = { min: 1, max: 30, default: 10 } as const;
/** How long one recording may last, in seconds, and how long it lasts when nobody stops it. */
export const RECORDING_SECONDS = { min: 1, max: 3_600, default: 300 } as const;
/** The video's size as a fraction of the screen frames' size. */
export const RECORDING_SCALE = { min: 0.1, max: 1, default: 1 } as const;
/** The video's longest side in pixels at most, whatever the scale (keeps the encoder's work per frame bounded). */
export const MAX_VIDEO_SIDE = 1_280;
/** Bytes all kept recordings may take (config `recordings.maxBytes`): the oldest are removed beyond it. */
export const DEFAULT_RECORDINGS_MAX_BYTES = 2 * 1024 ** 3;
export const MIN_RECORDINGS_MAX_BYTES = 1024 ** 2;
/** Recordings list_recordings returns at most. */
export const MAX_LISTED_RECORDINGS = 500;
/** A recording id: `rec-` then 20 lowercase letters or digits. */
export const RECORDING_ID_PATTERN = /^rec-[a-z0-9]{20}$/;
