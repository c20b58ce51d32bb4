import { ApexError } from '@apex/errors';

/**
 * The Android build reader's hook: `readBuild` calls `readApk` for an `.apk`. The Android app loop replaces this
 * file with the real reader (AndroidManifest.xml through an APK reader); until then an `.apk` is refused.
 */
export async function readApk(_path: string): Promise<{ appId: string; name: string; version?: string }> {
  throw new ApexError('unsupported_operation', 'Reading Android builds (.apk) is not available in this version of Apex.', {
    hint: 'Install an iOS build (.app, .ipa or .zip) instead.',
  });
}
