import { ApexError } from '@apex/errors';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import type { OperationContext } from './define-operation';
import { DEVICE_OPERATIONS } from './operations';
import { runOperation } from './run-operation';

/** The developer's loop against a driver that has none of its abilities: every operation says so, nothing runs. */
describe("the developer's loop operations on a driver without those abilities", () => {
  let hub: DeviceHub;
  let driver: FakeDriver;
  let ctx: OperationContext;

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'phone-a', name: 'Phone A', driver });
    ctx = { hub, perception: new Perception(hub), appRoots: [__dirname] };
  });
  afterEach(async () => {
    await ctx.perception.close();
    await hub.close();
  });

  async function codeOf(name: string, input: Record<string, unknown>): Promise<string> {
    try {
      await runOperation(ctx, name, { device: 'phone-a', ...input }, DEVICE_OPERATIONS);
      return 'resolved';
    } catch (error) {
      return error instanceof ApexError ? error.code : String(error);
    }
  }

  it.each([
    ['uninstall_app', { appId: 'com.example.App' }],
    ['reset_app', { appId: 'com.example.App' }],
    ['app_state', { appId: 'com.example.App' }],
    ['background_app', {}],
    ['set_permission', { appId: 'com.example.App', permission: 'location', state: 'granted' }],
    ['set_location', { latitude: 1, longitude: 2 }],
    ['set_location', { clear: true }],
    ['biometric', { action: 'match' }],
    ['push_notification', { appId: 'com.example.App', title: 'Hi', body: 'There' }],
    ['launch_app', { appId: 'com.example.App', arguments: ['-AppleLanguages', '(fr)'] }],
    ['launch_app', { appId: 'com.example.App', locale: 'fr-FR' }],
  ])('%s %j → unsupported_operation, the driver untouched', async (name, input) => {
    expect(await codeOf(name, input)).toBe('unsupported_operation');
    expect(driver.calls.filter((c) => c.method !== 'screen' && c.method !== 'uiTree' && c.method !== 'status')).toEqual([]);
  });

  it('launch_app without options still launches plainly', async () => {
    expect(await codeOf('launch_app', { appId: 'com.example.App' })).toBe('resolved');
    expect(driver.callsOf('launchApp').map((c) => c.args)).toEqual([['com.example.App']]);
  });

  it.each([
    ['set_location', { latitude: 1 }, 'longitude'],
    ['set_location', { clear: true, latitude: 1 }, 'latitude'],
    ['set_location', { latitude: 91, longitude: 0 }, 'latitude'],
    ['set_location', {}, 'latitude'],
    ['background_app', { seconds: 61 }, 'seconds'],
    ['set_permission', { appId: 'com.example.App', permission: 'telepathy', state: 'granted' }, 'permission'],
    ['push_notification', { appId: 'com.example.App', title: 'Hi', body: 'x', payload: { big: 'x'.repeat(5_000) } }, 'payload'],
    ['launch_app', { appId: 'com.example.App', locale: 'French please' }, 'locale'],
    ['launch_app', { appId: 'com.example.App', environment: { 'NOT A NAME': '1' } }, 'environment'],
    ['install_app', { path: '../../etc/passwd.app' }, 'path'],
    ['add_media', { path: '/etc/hostname.jpg' }, 'path'],
  ])('%s %j → invalid_argument naming %s', async (name, input, field) => {
    let error: unknown;
    try {
      await runOperation(ctx, name, { device: 'phone-a', ...input }, DEVICE_OPERATIONS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApexError);
    expect((error as ApexError).code).toBe('invalid_argument');
    expect(JSON.stringify((error as ApexError).issues ?? [])).toContain(field);
  });
});
