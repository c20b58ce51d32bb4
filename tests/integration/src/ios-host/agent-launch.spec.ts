import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createWdaDriver } from '@apex/driver-wda';
import { AgentSetupError, launchAgent, type AgentPhase, type RunningAgent } from '@apex/ios-host';
import { installStandIns, type StandIns } from '@apex/ios-host/testing';
import { SETTINGS_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

/**
 * The automation agent made ready "for you" on a simulator and on a USB iPhone, through stand-ins for the Mac's
 * tools (xcodebuild, go-ios) that answer in the real formats; the agent itself is a virtual iPhone reached
 * through the stand-ins' forwards, so the launch ends in real HTTP and a real tap.
 */

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const XCODE = { version: '15.4', build: '15F31d' };
/** Where the USB tunnel reaches an iPhone whose agent did not start: nothing listens there. */
const NO_AGENT = 'http://127.0.0.1:1';

describe('the automation agent, built and started for you', () => {
  let phone: VirtualIPhone;
  let tools: StandIns;
  let cacheDir: string;
  let projectPath: string;
  const running: RunningAgent[] = [];

  beforeAll(async () => {
    phone = await startVirtualIPhone({ port: 0 });
  });
  afterAll(async () => {
    await phone.close();
  });
  beforeEach(() => {
    cacheDir = mkdtempSync(path.join(tmpdir(), 'apex-agent-cache-'));
    // The project only has to exist: the stand-in xcodebuild builds nothing from it.
    projectPath = cacheDir;
    tools = installStandIns({ xcode: XCODE, agentUrl: phone.url, deviceUrl: phone.url });
  });
  afterEach(() => {
    running.splice(0).forEach((agent) => agent.stop());
    tools.remove();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  async function launch(kind: 'simulator' | 'device', extra: { teamId?: string } = {}) {
    const phases: AgentPhase[] = [];
    const hostPort = await freePort();
    const agent = await launchAgent(
      { udid: kind === 'simulator' ? 'SIM-UDID-1' : '00008110-000A1C2E3E38801E', kind, name: kind === 'simulator' ? 'iPhone 15' : "Ada's iPhone" },
      { projectPath, cacheDir, hostPort, env: tools.env, onPhase: (p) => phases.push(p), signal: AbortSignal.timeout(60_000), statusPollMs: 50, ...extra },
    );
    running.push(agent);
    return { agent, phases, hostPort };
  }

  it('builds once per device and Xcode version, starts the test run, and a command through it reaches the phone', async () => {
    const { agent, phases, hostPort } = await launch('simulator');
    expect(agent.url).toBe(`http://127.0.0.1:${hostPort}`);
    expect(phases).toEqual(['checking', 'building', 'starting', 'waiting', 'ready']);
    const derived = path.join(cacheDir, 'SIM-UDID-1-xcode-15.4');
    expect(tools.calls()).toEqual([
      { tool: 'xcodebuild', args: ['-version'] },
      {
        tool: 'xcodebuild',
        args: ['build-for-testing', '-project', projectPath, '-scheme', 'WebDriverAgentRunner', '-derivedDataPath', derived, '-destination', 'id=SIM-UDID-1', 'GCC_TREAT_WARNINGS_AS_ERRORS=0', 'COMPILER_INDEX_STORE_ENABLE=NO'],
      },
      {
        tool: 'xcodebuild',
        args: ['test-without-building', '-xctestrun', path.join(derived, 'Build', 'Products', 'WebDriverAgentRunner_iphoneos17.5-arm64.xctestrun'), '-destination', 'id=SIM-UDID-1'],
        usePort: String(hostPort),
      },
    ]);
    phone.phone.goHome();
    const driver = createWdaDriver({ deviceId: 'sim', url: agent.url });
    await driver.launchApp(SETTINGS_BUNDLE_ID, AbortSignal.timeout(10_000));
    expect(phone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
    await driver.close?.(AbortSignal.timeout(5_000));

    // A second launch for the same device and Xcode reuses the build.
    agent.stop();
    const again = await launch('simulator');
    expect(again.phases).toEqual(['checking', 'starting', 'waiting', 'ready']);
  });

  it('signs for a real iPhone with the configured team and forwards its port', async () => {
    const { phases, agent, hostPort } = await launch('device', { teamId: 'ABCDE12345' });
    expect(phases).toEqual(['checking', 'building', 'starting', 'forwarding', 'waiting', 'ready']);
    const calls = tools.calls();
    expect(calls[1]?.args).toEqual(expect.arrayContaining(['DEVELOPMENT_TEAM=ABCDE12345', 'CODE_SIGN_IDENTITY=Apple Development', '-destination', 'id=00008110-000A1C2E3E38801E']));
    // The test run and the forward start side by side: which of the two logs its call first is not defined.
    expect(calls.slice(2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'xcodebuild', args: expect.arrayContaining(['test-without-building']), usePort: '8100' }),
        { tool: 'ios', args: ['forward', String(hostPort), '8100', '--udid=00008110-000A1C2E3E38801E'] },
      ]),
    );
    expect(calls).toHaveLength(4);
    const status = await fetch(`${agent.url}/status`);
    expect(status.status).toBe(200);
  });

  it('forwards a real iPhone\'s port with libimobiledevice\'s iproxy when go-ios is not installed', async () => {
    const only = installStandIns({ xcode: XCODE, deviceUrl: phone.url }, { only: ['xcrun', 'xcodebuild', 'idevice_id', 'ideviceinfo', 'iproxy'] });
    try {
      const hostPort = await freePort();
      const agent = await launchAgent(
        { udid: '00008110-000A1C2E3E38801E', kind: 'device', name: "Ada's iPhone" },
        { projectPath, cacheDir, hostPort, teamId: 'ABCDE12345', usbTools: { kind: 'libimobiledevice' }, env: only.env, signal: AbortSignal.timeout(60_000), statusPollMs: 50 },
      );
      running.push(agent);
      expect(only.calls()).toEqual(expect.arrayContaining([{ tool: 'iproxy', args: [`${hostPort}:8100`, '-u', '00008110-000A1C2E3E38801E'] }]));
      expect(only.calls().some((c) => c.tool === 'ios')).toBe(false);
      // A command through the forward reaches the phone.
      phone.phone.goHome();
      const driver = createWdaDriver({ deviceId: 'usb', url: agent.url });
      await driver.launchApp(SETTINGS_BUNDLE_ID, AbortSignal.timeout(10_000));
      expect(phone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
      await driver.close?.(AbortSignal.timeout(5_000));
    } finally {
      only.remove();
    }
  });

  it.each<[string, () => void, string, RegExp]>([
    ['no Xcode', () => tools.setScenario({}), 'xcode_missing', /Xcode is not installed/],
    ['a real iPhone and no team', () => undefined, 'no_team', /development team/],
    [
      'a signing failure in the build',
      () => tools.setScenario({ xcode: { ...XCODE, buildErrors: ['error: Signing for "WebDriverAgentRunner" requires a development team. Select a development team in the Signing & Capabilities editor.'] } }),
      'no_team',
      /development team/,
    ],
    ['Developer Mode off', () => tools.setScenario({ xcode: { ...XCODE, testErrors: ['xcodebuild: error: Developer Mode disabled on the device'] }, deviceUrl: NO_AGENT }), 'developer_mode_off', /Developer Mode/],
    ['a locked iPhone', () => tools.setScenario({ xcode: { ...XCODE, testErrors: ["Unlock Ada's iPhone to Continue"] }, deviceUrl: NO_AGENT }), 'device_locked', /locked/],
    ['the trust dialog unanswered', () => tools.setScenario({ xcode: { ...XCODE, testErrors: ['The device is not paired with this computer.'] }, deviceUrl: NO_AGENT }), 'not_trusted', /trust/],
    ['no forward (go-ios finds no device)', () => tools.setScenario({ xcode: XCODE }), 'forward_failed', /forward/],
  ])('%s: a semantic error that names the fix', async (name, arrange, problem, message) => {
    arrange();
    const teamId = name === 'a real iPhone and no team' ? undefined : 'ABCDE12345';
    const error = await launch('device', { teamId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentSetupError);
    expect(error).toMatchObject({ problem, message: expect.stringMatching(message), hint: expect.any(String) });
    expect((error as AgentSetupError).message).not.toMatch(/WebDriverAgent|xcodebuild|go-ios/);
  });
});
