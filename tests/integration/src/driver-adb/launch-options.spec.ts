import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApk } from '@apex/apk/testing';
import { createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import { ApexError, LEAKY_WORDS } from '@apex/errors';
import type { UiNode } from '@apex/port';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

/**
 * A launch with options on Android (driver-adb `launchAppWith`): the arguments arrive as the intent's string
 * extras and the installed app shows them; environment and locale are refused before the phone is touched. Run
 * through a real adb server (Debian's adb, private port) and over the direct transport, both to the virtual adbd
 * in front of the virtual Android phone, with an APK built at test time.
 */

const APP = 'com.example.apexlaunch';
const live = (): AbortSignal => AbortSignal.timeout(20_000);
const LEAKS = new RegExp(`${LEAKY_WORDS.source}|android\\.intent|\\bam start\\b|--es|zygote`, 'i');

async function failure(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

function texts(node: UiNode): string[] {
  return [...(node.label ? [node.label] : []), ...(node.value ? [node.value] : []), ...node.children.flatMap(texts)];
}

function launchOptionCases(name: string, connect: (adbd: Adbd) => Promise<{ driver: AdbDriver; stop(): Promise<void> }>): void {
  describe(name, () => {
    let android: VirtualAndroid;
    let adbd: Adbd;
    let driver: AdbDriver;
    let stop: () => Promise<void>;
    let dir: string;
    const commands: string[] = [];
    const screen = async () => texts(await driver.uiTree(live()));

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'apex-launch-options-'));
      const path = join(dir, 'launch-demo.apk');
      await writeFile(path, buildTestApk({ appId: APP, label: 'Launch Demo', versionName: '1.0.0', versionCode: 1 }));
      android = createVirtualAndroid();
      const shell = android.backend.shell;
      adbd = await startAdbd({
        backend: {
          ...android.backend,
          shell: (session) => {
            commands.push(session.command);
            return shell(session);
          },
        },
        host: '127.0.0.1',
        extraFeatures: ['cmd'],
      });
      ({ driver, stop } = await connect(adbd));
      await driver.installApp({ path, kind: 'apk', appId: APP, name: 'Launch Demo', version: '1.0.0' }, live());
    }, 60_000);

    afterAll(async () => {
      await stop?.();
      await adbd?.close();
      await rm(dir, { recursive: true, force: true });
    }, 30_000);

    it('passes the arguments as string extras: the app shows them; a relaunch starts a new process with the new ones', async () => {
      await driver.launchAppWith(APP, { arguments: ['-mode', 'demo', 'greeting', 'bonjour à tous'] }, live());
      expect(await driver.appState(APP, live())).toBe('foreground');
      expect(await screen()).toEqual(expect.arrayContaining(['Launch Demo', 'Launched with: mode=demo, greeting=bonjour à tous']));

      // The app runs: the launch still restarts it, so the new process gets the new extras.
      await driver.launchAppWith(APP, { arguments: ['mode', 'release'] }, live());
      const shown = await screen();
      expect(shown).toContain('Launched with: mode=release');
      expect(shown.join('\n')).not.toContain('greeting');
      expect(shown).toContain('Launched 2 times');

      // A plain launch of the running app brings it back with the extras it started with (as getIntent() keeps them).
      await driver.launchApp(APP, live());
      expect(await screen()).toContain('Launched with: mode=release');
    });

    it('refuses environment and locale with the reason, and odd or unreadable arguments, before touching the phone', async () => {
      const before = commands.length;
      const environment = await failure(driver.launchAppWith(APP, { environment: { DEBUG: '1' } }, live()));
      expect(environment.code).toBe('unsupported_operation');
      expect(environment.message).toMatch(/environment variables: Android starts every app from one shared system process/);
      const locale = await failure(driver.launchAppWith(APP, { locale: 'fr-FR' }, live()));
      expect(locale.code).toBe('unsupported_operation');
      expect(locale.message).toMatch(/a locale: Android sets an app’s language as a lasting setting/);
      const odd = await failure(driver.launchAppWith(APP, { arguments: ['-mode', 'demo', '-verbose'] }, live()));
      expect(odd.code).toBe('invalid_argument');
      const badKey = await failure(driver.launchAppWith(APP, { arguments: ['a key; rm -rf /', 'x'] }, live()));
      expect(badKey.code).toBe('invalid_argument');
      expect(commands.length).toBe(before);
      for (const error of [environment, locale, odd, badKey]) expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(LEAKS);
    });

    it('an app that is not installed is app_not_found', async () => {
      const missing = await failure(driver.launchAppWith('com.example.nothere', { arguments: ['mode', 'demo'] }, live()));
      expect(missing.code).toBe('app_not_found');
      expect(missing.message).not.toMatch(LEAKS);
    });
  });
}

describeWithRealAdb('launch options through driver-adb and a real adb server', () => {
  let adb: RealAdbServer;
  launchOptionCases('through the server', async (adbd) => {
    adb = await startRealAdbServer();
    return {
      driver: createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port: adb.port }, device: { host: adbd.serial } }),
      stop: () => adb.stop(),
    };
  });
});

describe('launch options through driver-adb', () => {
  launchOptionCases('over the direct transport (no adb server)', async (adbd) => {
    const driver = createAdbDriver({ deviceId: 'pixel', device: { host: adbd.serial } });
    return { driver, stop: () => driver.close(AbortSignal.timeout(5_000)) };
  });
});
