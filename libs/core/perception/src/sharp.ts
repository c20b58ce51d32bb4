import { availableParallelism } from 'node:os';
import type Sharp from 'sharp';

let loaded: typeof Sharp | undefined;

/**
 * sharp, required on its first call rather than at start-up: it costs ~20–30 ms to load, and `apex mcp` answers
 * `tools/list` before anything needs pixels. Call it as sharp itself (`sharp(png).raw()…`); for its types,
 * `import type Sharp from 'sharp'` (`Sharp.OutputInfo`).
 *
 * Every screenshot is new pixels, so libvips' operation cache (50 MB by default) only kept old ones alive and made
 * the process's RSS swing by ±10 % over 10,000 operations (the bench's `memory` section): it is turned off here,
 * process-wide, when sharp loads — every image path of Apex (perception and the screenshot encoder of the
 * operations) goes through this function.
 *
 * libvips gets one thread per core: sharp's default on glibc is a single thread (against heap fragmentation), and
 * then a screenshot's PNG decode, resize and JPEG encode all queue on one core (the bench's `screenshots`
 * section measures the difference on new pixels).
 */
export function sharp(...args: Parameters<typeof Sharp>): Sharp.Sharp {
  if (!loaded) {
    loaded = require('sharp') as typeof Sharp;
    loaded.cache(false);
    loaded.concurrency(availableParallelism());
  }
  return loaded(...args);
}
