import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationContext } from '@apex/capability';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { createTaskService, type Task, type TaskService } from '@apex/tasks';
import { BUILDS_DIR } from '@apex/tasks/testing';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';
import { startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

export const LAUNCHER = 'com.google.android.apps.nexuslauncher';
export const SAMPLE_APK = join(__dirname, '../../../../examples/apps/WhereAmI.apk');

/** One fresh virtual Android phone behind a real adb server, driven by driver-adb, with a task service on top. */
export interface AndroidTaskStack {
  android: VirtualAndroid;
  /** `adb -s SERIAL shell …` through the private real adb server: the device's own answer. */
  shell(command: string): Promise<string>;
  run(goal: string): Promise<Task>;
  close(): Promise<void>;
}

/** The stack; the sample APK copied into its data dir's `builds` folder, which replaces BUILDS_DIR in goals. */
export async function startAndroidTaskStack(): Promise<AndroidTaskStack> {
  const android = createVirtualAndroid();
  const adbd: Adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1' });
  const adb: RealAdbServer = await startRealAdbServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'apex-android-goals-'));
  const config = join(dataDir, 'apex.json');
  writeFileSync(config, JSON.stringify({ devices: [{ id: 'android', driver: 'adb', host: adbd.serial, adbServer: `127.0.0.1:${adb.port}` }] }));
  const runtime: Runtime = await createRuntime({ configPath: config, dataDir, env: {}, logger: createLogger({ level: 'silent' }) });
  const context: OperationContext = { hub: runtime.hub, perception: runtime.perception, appRoots: runtime.appRoots };
  // The sample APK, where goals may name it (inside the runtime's data dir, one of the allowed roots).
  const builds = join(dataDir, 'builds');
  mkdirSync(builds);
  copyFileSync(SAMPLE_APK, join(builds, 'WhereAmI.apk'));
  const tasks: TaskService = createTaskService({ context, dataDir, env: {} });
  await adb.run(['connect', adbd.serial]);
  return {
    android,
    async shell(command) {
      const result = await adb.run(['-s', adbd.serial, 'shell', command]);
      if (result.code !== 0) throw new Error(`adb shell ${command} exited ${result.code}: ${result.stderr}`);
      return result.stdout.toString('utf8');
    },
    run: async (goal) => tasks.whenSettled((await tasks.start({ deviceId: 'android', goal: goal.split(BUILDS_DIR).join(builds) })).id),
    async close() {
      await tasks.close();
      await runtime.close();
      await adb.stop();
      await adbd.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The foreground package, as `dumpsys window` prints it. */
export async function foreground(stack: AndroidTaskStack): Promise<string | undefined> {
  return /mCurrentFocus=Window\{\S+ \S+ ([\w.]+)\//.exec(await stack.shell('dumpsys window windows'))?.[1];
}

/** The accessibility dump's nodes (the UI tree as the device reports it), each as its attributes. */
export async function uiNodes(stack: AndroidTaskStack): Promise<Array<Record<string, string>>> {
  const xml = await stack.shell('uiautomator dump /dev/tty');
  return [...xml.matchAll(/<node ([^>]*?)\/?>/g)].map((node) => Object.fromEntries([...node[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], unescapeXml(a[2])])));
}

/** The texts of the accessibility dump's nodes. */
export async function shownTexts(stack: AndroidTaskStack): Promise<string[]> {
  return (await uiNodes(stack)).map((n) => n.text ?? '').filter((t) => t.length > 0);
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_all, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '');
}

/** A task's outcome and steps in one line, for failure messages. */
export function detail(task: Task): string {
  return `${task.status} ${JSON.stringify(task.error ?? task.result)} steps: ${task.steps.map((s) => `${s.action.operation}${JSON.stringify(s.action.arguments)}→${s.outcome.status}`).join(', ')}`;
}
