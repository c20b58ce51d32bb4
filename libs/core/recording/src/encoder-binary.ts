import { ApexError } from '@apex/errors';

let located: string | undefined;

/**
 * The H.264 encoder's executable: the ffmpeg build shipped inside the npm package `@ffmpeg-installer/<platform>`
 * (see README: why this one). Loaded on first use, so that a process that never records never looks for it;
 * a platform the package has no build for is `unsupported_operation`, never a crash at start-up.
 */
export function encoderBinary(): string {
  if (located) return located;
  try {
    located = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    return located;
  } catch (error) {
    throw new ApexError('unsupported_operation', 'Screen recording is not available on this host: its video encoder is not installed for this platform.', {
      hint: 'Reinstall Apex with its optional dependencies (npm ci) on linux, macOS or Windows (x64 or arm64).',
      cause: error,
    });
  }
}
