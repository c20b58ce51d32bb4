import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppiumDriver } from '../appium-driver';

/**
 * A recording stand-in for an Appium server with UiAutomator2 (none runs here): it answers just enough
 * (a session, the display density, the clipboard, the alert) to check the exact commands sent.
 */
class RecordingServer {
  readonly commands: string[] = [];
  alertText: string | null = 'Allow access?';
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ value }));
      };
      if (req.url === '/session' && req.method === 'POST') return send(200, { sessionId: 'A1', capabilities: {} });
      const path = (req.url ?? '').replace('/session/A1', '');
      const parsed = body ? (JSON.parse(body) as { script?: string; args?: unknown[] }) : {};
      if (path === '/execute/sync' && parsed.script === 'mobile: getDisplayDensity') return send(200, 320);
      this.commands.push(path === '/execute/sync' ? `${parsed.script} ${JSON.stringify(parsed.args?.[0] ?? null)}` : `${req.method} ${path} ${body}`.trim());
      if (path === '/appium/device/get_clipboard') return send(200, Buffer.from('copied ✓').toString('base64'));
      if (path === '/alert/text') {
        return this.alertText === null ? send(404, { error: 'no such alert', message: 'No alert is open', stacktrace: '' }) : send(200, this.alertText);
      }
      if (parsed.script === 'mobile: deepLink' && JSON.stringify(parsed.args).includes('nosuch')) {
        return send(500, { error: 'unknown error', message: 'Activity not started, unable to resolve Intent', stacktrace: '' });
      }
      return send(200, null);
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('driver-appium Android device controls: the commands sent (UiAutomator2, not run on a device)', () => {
  const live = new AbortController().signal;
  let server: RecordingServer;
  let driver: AppiumDriver;

  beforeEach(async () => {
    server = new RecordingServer();
    await server.start();
    driver = new AppiumDriver({ deviceId: 'pixel', serverUrl: server.url, capabilities: { platformName: 'Android' } });
  });
  afterEach(async () => {
    await driver.close(live);
    await server.stop();
  });

  it('gestures go in pixels (density 320 → 2 px per dp)', async () => {
    await driver.longPress?.({ point: { x: 10, y: 20.4 }, durationMs: 800 }, live);
    await driver.doubleTap?.({ x: 50, y: 60 }, live);
    await driver.pinch?.({ center: { x: 200, y: 300 }, scale: 2, durationMs: 500 }, live);
    await driver.pinch?.({ center: { x: 200, y: 300 }, scale: 0.25, durationMs: 500 }, live);
    await driver.swipe({ from: { x: 10, y: 10 }, to: { x: 10, y: 110 }, durationMs: 300, holdMs: 600 }, live);
    expect(server.commands.slice(0, 4)).toEqual([
      'mobile: longClickGesture {"x":20,"y":41,"duration":800}',
      'mobile: doubleClickGesture {"x":100,"y":120}',
      'mobile: pinchOpenGesture {"left":200,"top":400,"width":400,"height":400,"percent":0.5,"speed":200}',
      'mobile: pinchCloseGesture {"left":200,"top":400,"width":400,"height":400,"percent":0.75,"speed":300}',
    ]);
    const swipe = JSON.parse(server.commands[4]?.replace(/^POST \/actions /, '') ?? '{}') as { actions: { actions: unknown[] }[] };
    expect(swipe.actions[0]?.actions).toEqual([
      { type: 'pointerMove', duration: 0, x: 20, y: 20, origin: 'viewport' },
      { type: 'pointerDown', button: 0 },
      { type: 'pause', duration: 600 },
      { type: 'pointerMove', duration: 300, x: 20, y: 220, origin: 'viewport' },
      { type: 'pointerUp', button: 0 },
    ]);
  });

  it('deep links, turns, locks, hides the keyboard and switches to night mode', async () => {
    await driver.openUrl?.('https://example.com', live);
    await driver.setOrientation?.('landscape', live);
    await driver.setLocked?.(true, live);
    await driver.setLocked?.(false, live);
    await driver.hideKeyboard?.(live);
    await driver.setAppearance?.('dark', live);
    expect(server.commands).toEqual([
      'mobile: deepLink {"url":"https://example.com"}',
      'POST /orientation {"orientation":"LANDSCAPE"}',
      'mobile: lock null',
      'mobile: unlock null',
      'POST /appium/device/hide_keyboard {}',
      'mobile: setUiMode {"mode":"night","value":"yes"}',
    ]);
    await expect(driver.openUrl?.('nosuch://x', live)).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('presses the hardware buttons as key codes, recents as the app switcher', async () => {
    for (const button of ['home', 'back', 'recents', 'volumeUp', 'volumeDown'] as const) await driver.pressButton(button, live);
    expect(server.commands).toEqual([3, 4, 187, 24, 25].map((keycode) => `mobile: pressKey ${JSON.stringify({ keycode })}`));
  });

  it('clipboard as base64 plain text', async () => {
    await driver.setClipboard?.('hello ✓', live);
    expect(await driver.getClipboard?.(live)).toBe('copied ✓');
    expect(server.commands[0]).toBe(
      `POST /appium/device/set_clipboard ${JSON.stringify({ content: Buffer.from('hello ✓').toString('base64'), contentType: 'plaintext' })}`,
    );
  });

  it('alerts: the text, answers by label, and none shown', async () => {
    expect(await driver.alert?.(live)).toEqual({ text: 'Allow access?', buttons: [] });
    await driver.handleAlert?.({ kind: 'press', button: 'Allow' }, live);
    await driver.handleAlert?.({ kind: 'dismiss' }, live);
    expect(server.commands.slice(1)).toEqual(['mobile: acceptAlert {"buttonLabel":"Allow"}', 'mobile: dismissAlert {}']);
    server.alertText = null;
    expect(await driver.alert?.(live)).toBeUndefined();
  });
});
