import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A stand-in `xcrun` for tests of Apex's simulator control, the one host tool that cannot run here (no Mac):
 * an executable named `xcrun` that appends each call's arguments (and stdin) to a log as one JSON line and
 * answers `xcrun simctl …` in simctl's own formats, keeping which apps are installed in a state file.
 *
 * Where each answer comes from (Xcode's `xcrun simctl help <verb>` and the outputs Appium's node-simctl parses,
 * `subcommands/*.js`; not re-checked on a Mac from here):
 * - `get_app_container <udid> <bundle id>`: prints the bundle's path and a newline, exit 0; for an app that is
 *   not installed: exit 2 and on stderr "An error was encountered processing the command
 *   (domain=NSPOSIXErrorDomain, code=2):" followed by the reason (node-simctl's getAppContainer throws on it).
 * - `install`, `uninstall`, `privacy`, `addmedia`, `spawn <udid> notifyutil …`: silent, exit 0.
 * - `terminate` of an app that does not run: exit 3, "An error was encountered processing the command
 *   (domain=com.apple.CoreSimulator.SimError, code=164): found nothing to terminate".
 * - `push <udid> <bundle id> -`: reads the payload from stdin, prints "Notification sent to '<bundle id>'".
 */

export interface XcrunCall {
  argv: string[];
  stdin?: string;
}

export interface XcrunStandIn {
  /** The folder to put first on PATH. */
  readonly binDir: string;
  /** The environment for a child that should find the stand-in: PATH with binDir first, and its log and state. */
  readonly env: NodeJS.ProcessEnv;
  calls(): Promise<XcrunCall[]>;
  /** Marks an app installed before the test (as if the user had installed it). */
  preinstall(bundleId: string): Promise<void>;
}

const SCRIPT = String.raw`#!/usr/bin/env node
const fs = require('node:fs');
const argv = process.argv.slice(2);
const log = process.env.XCRUN_STAND_IN_LOG;
const statePath = process.env.XCRUN_STAND_IN_STATE;
const state = fs.existsSync(statePath) ? JSON.parse(fs.readFileSync(statePath, 'utf8')) : { installed: {} };
const save = () => fs.writeFileSync(statePath, JSON.stringify(state));
const finish = (stdin) => {
  fs.appendFileSync(log, JSON.stringify(stdin === undefined ? { argv } : { argv, stdin }) + '\n');
  const [tool, verb, udid, ...rest] = argv;
  const fail = (code, domain, reason) => {
    process.stderr.write('An error was encountered processing the command (domain=' + domain + ', code=' + code + '):\n' + reason + '\n');
    process.exit(code === 2 ? 2 : 3);
  };
  if (tool !== 'simctl') fail(2, 'NSPOSIXErrorDomain', 'unknown tool');
  switch (verb) {
    case 'get_app_container': {
      const app = state.installed[rest[0]];
      if (!app) fail(2, 'NSPOSIXErrorDomain', 'No such file or directory');
      process.stdout.write('/Users/dev/Library/Developer/CoreSimulator/Devices/' + udid + '/data/Containers/Bundle/Application/0C5C5B0E-6D3B-4F0E-9C7B-2B1D1E1A1A1A/' + app + '\n');
      break;
    }
    case 'install': {
      const appPath = rest[0];
      const info = fs.readFileSync(require('node:path').join(appPath, 'Info.plist'), 'utf8');
      const id = /<key>CFBundleIdentifier<\/key>\s*<string>([^<]+)<\/string>/.exec(info);
      if (!id) fail(22, 'IXUserPresentableErrorDomain', 'Failed to get bundle ID from ' + appPath);
      state.installed[id[1]] = require('node:path').basename(appPath);
      save();
      break;
    }
    case 'uninstall':
      delete state.installed[rest[0]];
      save();
      break;
    case 'terminate':
      fail(164, 'com.apple.CoreSimulator.SimError', 'found nothing to terminate');
      break;
    case 'push':
      process.stdout.write("Notification sent to '" + rest[0] + "'\n");
      break;
    default:
      break;
  }
};
if (argv[1] === 'push' && argv[argv.length - 1] === '-') {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (input += chunk));
  process.stdin.on('end', () => finish(input));
} else finish();
`;

/** Writes the stand-in into `dir` (its own bin folder, log and state). */
export async function createXcrunStandIn(dir: string): Promise<XcrunStandIn> {
  const binDir = path.join(dir, 'bin');
  await mkdir(binDir, { recursive: true });
  const script = path.join(binDir, 'xcrun');
  await writeFile(script, SCRIPT);
  await chmod(script, 0o755);
  const log = path.join(dir, 'xcrun-calls.jsonl');
  const state = path.join(dir, 'xcrun-state.json');
  await writeFile(log, '');
  const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, XCRUN_STAND_IN_LOG: log, XCRUN_STAND_IN_STATE: state };
  return {
    binDir,
    env,
    calls: async () =>
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as XcrunCall),
    preinstall: async (bundleId) => {
      const current = JSON.parse(await readFile(state, 'utf8').catch(() => '{"installed":{}}')) as { installed: Record<string, string> };
      current.installed[bundleId] = `${bundleId.split('.').pop()}.app`;
      await writeFile(state, JSON.stringify(current));
    },
  };
}
