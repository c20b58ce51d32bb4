import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ApexError, echoName } from '@apex/errors';
import type { AppBuild, MediaFile } from '@apex/port';
import { WebDriverProtocolError } from '@apex/webdriver-http';
import type { AppiumContext } from './context';

/*
 * What the loop's file-carrying commands need from the automation server. `mobile: installApp` takes a path
 * (or a URL) that the SERVER opens on its own computer: the build Apex checked is on Apex's computer, so an
 * install is only offered when the server runs on this same computer (a loopback address). Media travel in
 * the request itself (base64), so they work with a server anywhere.
 */

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The build's path, when the server can open it (it runs on this computer); else `unsupported_operation`. */
export function buildPathForServer(ctx: AppiumContext, build: AppBuild): string {
  const host = new URL(ctx.serverUrl).hostname;
  if (!LOOPBACK.has(host)) {
    throw new ApexError(
      'unsupported_operation',
      `Device ${ctx.deviceId} cannot install "${echoName(build.name)}": its automation server runs on another computer (${echoName(host)}) and installs only builds found on its own disk.`,
      { hint: 'Copy the build to the computer that runs the automation server and install it there, or run that server on this computer.' },
    );
  }
  return build.path;
}

/** The file's bytes as base64, for a command that carries them. */
export async function mediaPayload(ctx: AppiumContext, file: MediaFile): Promise<{ name: string; payload: string }> {
  const bytes = await readFile(file.path).catch((cause: unknown) => {
    throw new ApexError('invalid_argument', `The ${file.kind} "${echoName(basename(file.path))}" cannot be read on this computer.`, { hint: 'Check that the file still exists.', cause });
  });
  return { name: basename(file.path), payload: bytes.toString('base64') };
}

/** The server's refusal of a simulator-only (or emulator-only) command on this device, in Apex's words. */
export async function onlyOn<T>(ctx: AppiumContext, what: string, needs: RegExp, kind: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof WebDriverProtocolError && needs.test(error.serverMessage)) {
      throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot ${what}: this works on ${kind} only.`, {
        hint: `Use ${kind} for this step.`,
        cause: error,
      });
    }
    throw error;
  }
}
