import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** What the stand-in tools answer (see stand-in-tool.js for each tool's real format). */
export interface StandInScenario {
  /** Xcode as `xcodebuild -version` reports it; absent: no Xcode (the tools say so as the real ones do). */
  xcode?: { version: string; build: string; buildErrors?: string[]; testErrors?: string[]; holdBuild?: string };
  /** `simctl list -j`'s `devices`: runtime identifier → devices. */
  simulators?: Record<string, Array<{ udid: string; name: string; state: string; isAvailable: boolean; deviceTypeIdentifier?: string }>>;
  /** go-ios `list --details` entries; absent: no USB service. */
  usb?: Array<{ Udid: string; ProductName: string; ProductType: string; ProductVersion: string; ConnectionType?: string; DeviceName?: string }>;
  /** Where a simulator's agent really answers (the virtual iPhone): `test-without-building` forwards its port there. */
  agentUrl?: string;
  /** Where the USB tunnel reaches the iPhone's agent (the virtual iPhone): `ios forward` forwards there. */
  deviceUrl?: string;
  /** Apps on the USB iPhones (bundle id → name), as go-ios `apps --list` prints them; `install` adds to it. */
  usbInstalled?: Record<string, string>;
  /** go-ios `install` fails with this error (e.g. the phone refused the build's signature). */
  usbInstallError?: string;
  /** Apps on the booted simulator (bundle id → `.app` folder name); `simctl install`/`uninstall` keep it. */
  installed?: Record<string, string>;
  /** What `simctl spawn UDID log show --style ndjson` prints, line by line. */
  logLines?: string[];
}

/** Builds held by the stand-in xcodebuild (see StandIns.holdBuilds). */
export interface BuildHold {
  /** Resolves once a build has started and waits (at once if one already does). */
  started(): Promise<void>;
  /** Lets every waiting build go on. */
  release(): void;
}

/** One call of a stand-in tool, as it was made. */
export interface StandInCall {
  tool: string;
  args: string[];
  /** `USE_PORT` of the call's environment (xcodebuild's agent port), when set. */
  usePort?: string;
  /** What the call read on stdin (only `simctl push … -` reads it). */
  stdin?: string;
}

export interface StandIns {
  /** PATH with the stand-ins first, for the tools' environment. */
  env: NodeJS.ProcessEnv;
  binDir: string;
  /** Every call so far, in order. */
  calls(): StandInCall[];
  setScenario(scenario: StandInScenario): void;
  /**
   * From now on, each `xcodebuild build-for-testing` waits until released (the scenario's `xcode` must be set):
   * `started()` resolves when a build waits, `release()` lets the waiting ones go on. Events, not sleeps.
   */
  holdBuilds(): Promise<BuildHold>;
  /** Marks an app installed on the simulator before the test (as if the user had installed it). */
  preinstall(bundleId: string): void;
  remove(): void;
}

export const STAND_IN_TOOLS = ['xcrun', 'xcodebuild', 'ios', 'idevice_id', 'ideviceinfo', 'iproxy'] as const;
export type StandInTool = (typeof STAND_IN_TOOLS)[number];

export interface StandInOptions {
  /**
   * Only these tools exist (e.g. libimobiledevice's without go-ios): PATH then holds the stand-ins and Node alone,
   * so a tool left out is missing even where this machine has it.
   */
  only?: readonly StandInTool[];
}

/** Installs stand-ins for the Mac's tools (STAND_IN_TOOLS) in a temp dir, answering from `scenario`. */
export function installStandIns(scenario: StandInScenario, options: StandInOptions = {}): StandIns {
  const binDir = mkdtempSync(path.join(tmpdir(), 'apex-stand-ins-'));
  const script = path.join(__dirname, 'stand-in-tool.js');
  chmodSync(script, 0o755);
  for (const tool of options.only ?? STAND_IN_TOOLS) symlinkSync(script, path.join(binDir, tool));
  // The stand-ins run under `#!/usr/bin/env node`: on an isolated PATH, Node is found beside them.
  if (options.only) symlinkSync(process.execPath, path.join(binDir, 'node'));
  const searchPath = options.only ? binDir : `${binDir}${path.delimiter}${process.env.PATH ?? ''}`;
  const scenarioFile = path.join(binDir, 'scenario.json');
  const log = path.join(binDir, 'calls.jsonl');
  writeFileSync(log, '');
  const setScenario = (s: StandInScenario) => writeFileSync(scenarioFile, JSON.stringify(s));
  let hold: Server | undefined;
  setScenario(scenario);
  return {
    binDir,
    env: { ...process.env, PATH: searchPath, APEX_STAND_IN_SCENARIO: scenarioFile, APEX_STAND_IN_LOG: log },
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as StandInCall),
    setScenario,
    preinstall: (bundleId) => {
      const current = JSON.parse(readFileSync(scenarioFile, 'utf8')) as StandInScenario;
      setScenario({ ...current, installed: { ...current.installed, [bundleId]: `${bundleId.split('.').pop()}.app` } });
    },
    holdBuilds: async () => {
      const socketPath = path.join(binDir, 'hold.sock');
      const waiting: Socket[] = [];
      let onStarted: (() => void) | undefined;
      hold = createServer((socket) => {
        socket.on('error', () => undefined);
        waiting.push(socket);
        onStarted?.();
      });
      await new Promise<void>((resolve) => hold?.listen(socketPath, resolve));
      const current = JSON.parse(readFileSync(scenarioFile, 'utf8')) as StandInScenario;
      if (!current.xcode) throw new Error('holdBuilds needs the scenario\'s xcode');
      setScenario({ ...current, xcode: { ...current.xcode, holdBuild: socketPath } });
      return {
        started: () => (waiting.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (onStarted = resolve))),
        release: () => waiting.splice(0).forEach((socket) => socket.end('go\n')),
      };
    },
    remove: () => {
      hold?.close();
      rmSync(binDir, { recursive: true, force: true });
    },
  };
}
