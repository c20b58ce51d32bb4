import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ApexError } from '@apex/errors';
import { eachLine, killGroup, runTool, startTool, ToolMissing, type RunToolOptions } from './run-tool';
import { portForwardCommand, type UsbTools } from './usb-iphones';

/**
 * Builds and starts the on-device automation agent (WebDriverAgent's Xcode project, as Appium's xcuitest driver
 * does: `xcodebuild build-for-testing` once per device and Xcode version, then `test-without-building`), forwards
 * its port from a USB iPhone (go-ios `ios forward`, or libimobiledevice's `iproxy`), and waits until it answers `/status`. Public messages say
 * "automation agent": the project's name is a driver word that never reaches a client.
 */

export type AgentPhase = 'checking' | 'building' | 'starting' | 'forwarding' | 'waiting' | 'ready';

/** Each phase in a person's words, for clients and the CLI: no host tool or agent project is named. */
export const AGENT_PHASE_WORDS: Readonly<Record<AgentPhase, string>> = {
  checking: 'checking the tools',
  building: 'building the automation agent (the first time takes minutes)',
  starting: 'starting the automation agent',
  forwarding: 'forwarding the port',
  waiting: 'waiting for it to answer',
  ready: 'ready',
};

export interface AgentTarget {
  udid: string;
  kind: 'simulator' | 'device';
  name?: string;
}

export interface AgentLaunchOptions {
  /** The agent's Xcode project (`…/WebDriverAgent.xcodeproj`). */
  projectPath: string;
  /** Builds are kept here, one folder per device and Xcode version. */
  cacheDir: string;
  /** The Apple development team that signs the agent for a real iPhone (config `ios.teamId`). */
  teamId?: string;
  signingId?: string;
  /** The port the agent listens on, on a real iPhone (8100, its default); a simulator's agent listens on `hostPort`. */
  devicePort?: number;
  /** The port on this host: a simulator shares the host's network (then it is the device port), an iPhone is forwarded. */
  hostPort: number;
  /** go-ios' `ios` binary, for the port forward of a real iPhone (when `usbTools` is not given). */
  iosBinary?: string;
  /** The tools that forward a real iPhone's port (those that listed it); default go-ios' `iosBinary`. */
  usbTools?: UsbTools;
  onPhase?: (phase: AgentPhase, detail: string) => void;
  signal: AbortSignal;
  /** Between two `/status` probes while the agent starts (default 500 ms). */
  statusPollMs?: number;
  /** The tools' environment (default this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface RunningAgent {
  url: string;
  /** Ends the agent's test run and the port forward. */
  stop(): void;
}

/** Why an agent could not be made ready: each names its fix. */
export type AgentProblem =
  | 'xcode_missing'
  | 'project_missing'
  | 'no_team'
  | 'developer_mode_off'
  | 'device_locked'
  | 'not_trusted'
  | 'build_failed'
  | 'start_failed'
  | 'forward_failed';

export class AgentSetupError extends ApexError {
  constructor(
    readonly problem: AgentProblem,
    message: string,
    hint: string,
  ) {
    super(problem === 'xcode_missing' || problem === 'project_missing' ? 'unsupported_operation' : 'device_error', message, { hint });
  }
}

/** Lines of the build and test output that name a cause a person can fix (Xcode's own wording). */
const NO_TEAM = {
  pattern: /requires a development team|No Account for Team|No signing certificate/i,
  problem: 'no_team',
  message: 'Signing the automation agent for this iPhone needs an Apple development team.',
  hint: 'Set ios.teamId in the Apex config to your team id (Xcode → Settings → Accounts), then try again.',
} as const;

const KNOWN_FAILURES: ReadonlyArray<{ pattern: RegExp; problem: AgentProblem; message: string; hint: string }> = [
  NO_TEAM,
  {
    pattern: /Developer Mode (?:is )?disabled|enable Developer Mode/i,
    problem: 'developer_mode_off',
    message: 'Developer Mode is off on this iPhone.',
    hint: 'On the iPhone: Settings → Privacy & Security → Developer Mode → On, restart it, then try again.',
  },
  {
    pattern: /is (?:passcode )?locked|Unlock .* to Continue/i,
    problem: 'device_locked',
    message: 'The iPhone is locked.',
    hint: 'Unlock the iPhone and keep it unlocked while Apex prepares it.',
  },
  {
    pattern: /not (?:been )?paired|is not trusted|Trust This Computer|pairing/i,
    problem: 'not_trusted',
    message: 'The iPhone does not trust this computer yet.',
    hint: 'Unlock the iPhone and answer "Trust" on the dialog it shows, then try again.',
  },
];

function classify(output: string, fallback: AgentProblem, fallbackMessage: string, fallbackHint: string): AgentSetupError {
  const known = KNOWN_FAILURES.find((failure) => failure.pattern.test(output));
  return known
    ? new AgentSetupError(known.problem, known.message, known.hint)
    : new AgentSetupError(fallback, fallbackMessage, fallbackHint);
}

/** `xcodebuild -version` prints "Xcode 15.4\nBuild version 15F31d". */
export function xcodeVersionOf(output: string): string | undefined {
  return /^Xcode\s+(\S+)/m.exec(output)?.[1];
}

/** The installed Xcode's version, or undefined when there is none (not a Mac, or only the command line tools). */
export async function findXcode(options: RunToolOptions): Promise<string | undefined> {
  try {
    const result = await runTool('xcodebuild', ['-version'], options);
    return result.code === 0 ? xcodeVersionOf(result.stdout) : undefined;
  } catch (error) {
    if (error instanceof ToolMissing) return undefined;
    throw error;
  }
}

/** The test-run description a build leaves in `Build/Products` (`….xctestrun`), if any. */
function builtTestRun(derivedDataPath: string): string | undefined {
  const products = path.join(derivedDataPath, 'Build', 'Products');
  if (!existsSync(products)) return undefined;
  const file = readdirSync(products).find((name) => name.endsWith('.xctestrun'));
  return file ? path.join(products, file) : undefined;
}

/** Makes the agent ready on the target; the signal bounds the whole launch (the first build takes minutes). */
export async function launchAgent(target: AgentTarget, options: AgentLaunchOptions): Promise<RunningAgent> {
  const { signal } = options;
  const env = options.env ?? process.env;
  const run = (command: string, args: readonly string[]) => runTool(command, args, { signal, env });
  const phase = (p: AgentPhase, detail: string) => options.onPhase?.(p, detail);
  // A simulator shares the host's network: the agent listens on the host port itself.
  const devicePort = target.kind === 'simulator' ? options.hostPort : (options.devicePort ?? 8100);
  const label = target.name ?? target.udid;

  phase('checking', 'looking for Xcode');
  const version = await findXcode({ signal, env });
  if (!version) throw xcodeMissing();
  if (!existsSync(options.projectPath)) {
    throw new AgentSetupError(
      'project_missing',
      'The automation agent project was not found.',
      'Install it (npm i appium-webdriveragent) or set ios.agentProject to its .xcodeproj path.',
    );
  }
  if (target.kind === 'device' && !options.teamId) throw new AgentSetupError('no_team', NO_TEAM.message, NO_TEAM.hint);

  const derivedDataPath = path.join(options.cacheDir, `${target.udid}-xcode-${version}`);
  let testRun = builtTestRun(derivedDataPath);
  if (!testRun) {
    phase('building', `building the automation agent for ${label} (the first time takes minutes)`);
    mkdirSync(derivedDataPath, { recursive: true });
    const signing = target.kind === 'device' ? [`DEVELOPMENT_TEAM=${options.teamId}`, `CODE_SIGN_IDENTITY=${options.signingId ?? 'Apple Development'}`] : [];
    const build = await run(
      'xcodebuild',
      [
        'build-for-testing',
        '-project',
        options.projectPath,
        '-scheme',
        'WebDriverAgentRunner',
        '-derivedDataPath',
        derivedDataPath,
        '-destination',
        `id=${target.udid}`,
        ...signing,
        'GCC_TREAT_WARNINGS_AS_ERRORS=0',
        'COMPILER_INDEX_STORE_ENABLE=NO',
      ],
    );
    testRun = builtTestRun(derivedDataPath);
    if (build.code !== 0 || !testRun) {
      throw classify(build.stdout + build.stderr, 'build_failed', `Building the automation agent for ${label} failed.`, 'Run `apex doctor` for what is missing; the build output is in the Apex log.');
    }
  }

  phase('starting', `starting the automation agent on ${label}`);
  const children = new AbortController();
  const stopAll = () => children.abort();
  signal.addEventListener('abort', stopAll, { once: true });
  const agent = startTool('xcodebuild', ['test-without-building', '-xctestrun', testRun, '-destination', `id=${target.udid}`], {
    signal: children.signal,
    env: { ...env, USE_PORT: String(devicePort) },
  });
  let output = '';
  let exited = false;
  const keep = (line: string) => {
    if (output.length < 64 * 1024) output += `${line}\n`;
  };
  eachLine(agent.stdout, keep);
  eachLine(agent.stderr, keep);
  // 'close', not 'exit': the output is fully read by then, so the failure's own lines can be classified.
  agent.once('close', () => (exited = true));
  agent.once('error', () => (exited = true));

  try {
    if (target.kind === 'device') {
      phase('forwarding', `forwarding port ${options.hostPort} to the iPhone`);
      const usbTools = options.usbTools ?? { kind: 'go-ios', binary: options.iosBinary ?? 'ios' };
      const { command, args } = portForwardCommand(usbTools, target.udid, options.hostPort, devicePort);
      const forward = startTool(command, args, { signal: children.signal, env });
      let forwardFailed: unknown;
      forward.once('error', (error) => (forwardFailed = error));
      forward.once('close', (code) => (forwardFailed ??= new Error(`the forward ended (${code})`)));
      await waitForStatus(options, () => {
        if (exited) throw classify(output, 'start_failed', `The automation agent on ${label} stopped while starting.`, 'Run `apex doctor`; the test output is in the Apex log.');
        if (forwardFailed) {
          throw new AgentSetupError(
            'forward_failed',
            `Could not forward a port to ${label}.`,
            'Check the USB connection, and that the USB device tools are installed (`apex doctor` says which are missing).',
          );
        }
      });
    } else {
      await waitForStatus(options, () => {
        if (exited) throw classify(output, 'start_failed', `The automation agent on ${label} stopped while starting.`, 'Run `apex doctor`; the test output is in the Apex log.');
      });
    }
  } catch (error) {
    stopAll();
    killGroup(agent);
    throw error;
  }
  const url = `http://127.0.0.1:${options.hostPort}`;
  phase('ready', `the automation agent answers at ${url}`);
  return {
    url,
    stop() {
      signal.removeEventListener('abort', stopAll);
      stopAll();
    },
  };
}

function xcodeMissing(): AgentSetupError {
  return new AgentSetupError('xcode_missing', 'Xcode is not installed on this computer.', 'iPhones and simulators need a Mac with Xcode (xcode-select --install is not enough).');
}

/** Probes `/status` until it answers 200, checking `stillStarting` (which throws when the start failed) between probes. */
async function waitForStatus(options: AgentLaunchOptions, stillStarting: () => void): Promise<void> {
  const url = `http://127.0.0.1:${options.hostPort}/status`;
  options.onPhase?.('waiting', `waiting for ${url}`);
  for (;;) {
    stillStarting();
    options.signal.throwIfAborted();
    try {
      const reply = await fetch(url, { signal: AbortSignal.any([options.signal, AbortSignal.timeout(2_000)]) });
      await reply.arrayBuffer();
      if (reply.ok) return;
    } catch (error) {
      options.signal.throwIfAborted();
      void error; // not answering yet
    }
    await new Promise((resolve) => setTimeout(resolve, options.statusPollMs ?? 500));
  }
}
