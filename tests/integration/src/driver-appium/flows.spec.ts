import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { SETTINGS_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { call } from '../rest/harness';

const SPAWN_TIMEOUT = 120_000;
const DEVICE = 'iphone';
const EXAMPLE = readFileSync(path.resolve(__dirname, '../../../../examples/flows/settings-about.yaml'), 'utf8');

/** The repo's flow on a phone configured through driver-appium (an Appium server in front of the phone), over REST. */
describe('a flow through driver-appium', () => {
  let server: AppiumServer;
  let phone: VirtualIPhone;
  let runtime: Runtime;
  let api: RestApiHandle;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-appium-flows-'));
    [server, phone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
    const config = path.join(dir, 'apex.json');
    writeFileSync(config, JSON.stringify({ devices: [{ id: DEVICE, name: 'My iPhone', driver: 'appium', serverUrl: server.url, capabilities: iosCapabilities(phone.url) }] }));
    runtime = await createRuntime({ configPath: config, dataDir: path.join(dir, 'data'), env: {}, logger: createLogger({ level: 'silent' }) });
    api = await startRestApi(runtime, { port: 0, logger: createRestLogger({ level: 'silent' }) });
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    await api?.close();
    await runtime?.close();
    await server?.close();
    await phone?.close();
    rmSync(dir, { recursive: true, force: true });
  }, SPAWN_TIMEOUT);

  it('Settings → General → About passes and checks the model name, as it does through driver-wda', async () => {
    const started = await call(api.url, 'POST', '/flows/run', { body: { yaml: EXAMPLE, device: DEVICE } });
    expect(started.status).toBe(202);
    const task = await runtime.tasks.whenSettled(started.body['taskId'] as string);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(task).toMatchObject({ planner: 'flow', deviceId: DEVICE, result: 'Flow "About this iPhone": 5 step(s) passed.' });
    expect(task.steps.map((s) => [s.action.operation, s.outcome.status])).toEqual([['launch_app', 'ok'], ['tap', 'ok'], ['tap', 'ok']]);
    expect(phone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
    expect(JSON.stringify(phone.phone.snapshot())).toContain('Model Number');
  }, SPAWN_TIMEOUT);
});
