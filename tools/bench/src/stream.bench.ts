/**
 * The live screen (issue 17): frames per second of `GET /devices/{id}/stream` and click-to-frame latency (a
 * tap sent through REST → the first frame whose bytes differ from the one before the tap), each next to the
 * raw protocol measured in the same run: the virtual iPhone's own MJPEG port and a raw WDA tap. Also the
 * fallback for devices without a stream (screenshots pushed on change). Target (issue 17): click to frame
 * ≤ 300 ms on loopback, ≥ 5 frames/s.
 */
import { connect } from 'node:net';
import { request } from 'node:http';
import { createWdaDriver } from '@apex/driver-wda';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { createRestLogger, createRestServer } from '@apex/rest';
import { SETTINGS_BUNDLE_ID, startVirtualIPhone, type PhoneElement, type VirtualIPhone } from '@apex/virtual-device';
import { rawWda } from './support/raw-wda';
import { target, type Section, type SectionResult } from './support/section';
import { round, summarize } from './support/stats';

/** Frames with their arrival times, read by each part's Content-Length (both the raw port and REST send it). */
class FrameLog {
  readonly frames: { at: number; bytes: Buffer }[] = [];
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const match = /Content-Length:\s*(\d+)\r\n\r\n/i.exec(this.buffer.toString('latin1', 0, Math.min(this.buffer.length, 4096)));
      if (!match) return;
      const start = match.index + match[0].length;
      const length = Number(match[1]);
      if (this.buffer.length < start + length) return;
      this.frames.push({ at: performance.now(), bytes: this.buffer.subarray(start, start + length) });
      this.buffer = this.buffer.subarray(start + length);
      for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves at the next frame. */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Waits for a frame after index `from` that differs from `than`; its arrival time. */
  async changed(from: number, than: Buffer, limitMs = 10_000): Promise<number> {
    const deadline = performance.now() + limitMs;
    for (;;) {
      const found = this.frames.slice(from).find((frame) => !frame.bytes.equals(than));
      if (found) return found.at;
      if (performance.now() > deadline) throw new Error('no changed frame');
      await this.next();
    }
  }
}

interface Viewer {
  log: FrameLog;
  close(): void;
}

function rawViewer(port: number): Viewer {
  const log = new FrameLog();
  const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
  socket.on('data', (chunk: Buffer) => log.push(chunk));
  socket.on('error', () => undefined);
  return { log, close: () => socket.destroy() };
}

function restViewer(url: string): Viewer {
  const log = new FrameLog();
  const req = request(url, (res) => res.on('data', (chunk: Buffer) => log.push(chunk)));
  req.on('error', () => undefined);
  req.end();
  return { log, close: () => req.destroy() };
}

/** Frames per second over `count` frames after the first. */
async function framesPerSecond(viewer: Viewer, count: number): Promise<number> {
  while (viewer.log.frames.length < 1) await viewer.log.next();
  const from = viewer.log.frames.length - 1;
  while (viewer.log.frames.length < from + 1 + count) await viewer.log.next();
  const first = viewer.log.frames[from].at;
  const last = viewer.log.frames[from + count].at;
  return (count * 1000) / (last - first);
}

/** Milliseconds from sending a tap to the first frame showing it; each tap flips the Wi-Fi switch. */
async function clickToFrame(viewer: Viewer, tap: () => Promise<unknown>, samples: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    // Start from a settled screen: two equal frames in a row.
    for (;;) {
      await viewer.log.next();
      const frames = viewer.log.frames;
      if (frames.length >= 2 && frames[frames.length - 1].bytes.equals(frames[frames.length - 2].bytes)) break;
    }
    const from = viewer.log.frames.length;
    const before = viewer.log.frames[from - 1].bytes;
    const sent = performance.now();
    await tap();
    latencies.push((await viewer.log.changed(from, before)) - sent);
  }
  return latencies;
}

/** Screenshots pushed on change do not send a frame while nothing changes: measured on latency only. */
async function clickToChangedFrame(viewer: Viewer, tap: () => Promise<unknown>, samples: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    while (viewer.log.frames.length < 1) await viewer.log.next();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const from = viewer.log.frames.length;
    const before = viewer.log.frames[from - 1].bytes;
    const sent = performance.now();
    await tap();
    latencies.push((await viewer.log.changed(from, before)) - sent);
  }
  return latencies;
}

function wifiSwitch(iphone: VirtualIPhone): { x: number; y: number } {
  const find = (e: PhoneElement): PhoneElement | undefined =>
    e.type === 'Switch' && e.label === 'Wi-Fi' ? e : e.children.map(find).find(Boolean);
  const wifi = find(iphone.phone.snapshot());
  if (!wifi) throw new Error('no Wi-Fi switch on Settings');
  return { x: wifi.rect.x + wifi.rect.width / 2, y: wifi.rect.y + wifi.rect.height / 2 };
}

export const streamSection: Section = {
  name: 'stream',
  description: 'the live screen: GET /devices/{id}/stream frames/s and click-to-frame latency vs the raw MJPEG port',
  async run({ quick }): Promise<SectionResult> {
    const iphone = await startVirtualIPhone({ port: 0, mjpegPort: 0 });
    const plain = await startVirtualIPhone({ port: 0 });
    const hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'streaming', driver: createWdaDriver({ deviceId: 'streaming', url: iphone.url, mjpegUrl: `http://127.0.0.1:${iphone.mjpegPort}` }) });
    hub.register({ id: 'screenshots', driver: createWdaDriver({ deviceId: 'screenshots', url: plain.url }) });
    const perception = new Perception(hub);
    const rest = createRestServer({ hub, perception }, { logger: createRestLogger({ level: 'silent' }) });
    const { url } = await rest.listen(0);
    const raw = rawWda(iphone.url);
    const viewers: Viewer[] = [];
    try {
      iphone.phone.launchApp(SETTINGS_BUNDLE_ID);
      plain.phone.launchApp(SETTINGS_BUNDLE_ID);
      const point = wifiSwitch(iphone);
      const sessionId = (JSON.parse(await raw.post('/session', { capabilities: { alwaysMatch: {} } })) as { value: { sessionId: string } }).value.sessionId;
      const restTap = (device: string) => () =>
        fetch(`${url}/devices/${device}/tap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(point) }).then((r) => {
          if (r.status !== 200) throw new Error(`tap answered ${r.status}`);
          return r.arrayBuffer();
        });
      const rawTap = () => raw.post(`/session/${sessionId}/wda/tap`, point);
      const frameCount = quick ? 5 : 50;
      const samples = quick ? 3 : 21;

      const rawView = rawViewer(iphone.mjpegPort as number);
      viewers.push(rawView);
      const rawFps = await framesPerSecond(rawView, frameCount);
      const rawLatency = summarize(await clickToFrame(rawView, rawTap, samples));
      rawView.close();

      const restView = restViewer(`${url}/devices/streaming/stream`);
      viewers.push(restView);
      const restFps = await framesPerSecond(restView, frameCount);
      const restLatency = summarize(await clickToFrame(restView, restTap('streaming'), samples));
      restView.close();

      const fallbackView = restViewer(`${url}/devices/screenshots/stream`);
      viewers.push(fallbackView);
      const fallbackLatency = summarize(await clickToChangedFrame(fallbackView, restTap('screenshots'), samples));
      fallbackView.close();

      const frameBytes = restView.log.frames.at(-1)?.bytes.length ?? 0;
      const result: SectionResult = {
        title: `Live screen on the virtual iPhone (${iphone.phone.profile.width}×${iphone.phone.profile.height} pt, frames at native size, ~${Math.round(frameBytes / 1024)} KiB JPEG q25), loopback`,
        columns: ['case', 'frames/s', 'click→frame p50 ms', 'p95 ms', 'n', 'ratio to raw (p50)'],
        rows: [
          { case: 'raw MJPEG port + raw WDA tap (the floor)', 'frames/s': round(rawFps, 1), 'click→frame p50 ms': round(rawLatency.p50, 1), 'p95 ms': round(rawLatency.p95, 1), n: rawLatency.n, 'ratio to raw (p50)': 1 },
          {
            case: 'GET /devices/{id}/stream (device stream) + POST /tap',
            'frames/s': round(restFps, 1),
            'click→frame p50 ms': round(restLatency.p50, 1),
            'p95 ms': round(restLatency.p95, 1),
            n: restLatency.n,
            'ratio to raw (p50)': round(restLatency.p50 / rawLatency.p50, 2),
          },
          {
            case: 'GET /devices/{id}/stream (screenshots on change) + POST /tap',
            'frames/s': null,
            'click→frame p50 ms': round(fallbackLatency.p50, 1),
            'p95 ms': round(fallbackLatency.p95, 1),
            n: fallbackLatency.n,
            'ratio to raw (p50)': round(fallbackLatency.p50 / rawLatency.p50, 2),
          },
        ],
        targets: [
          target('stream frames/s (device stream, default framerate 10)', '≥ 5', restFps, 'frames/s', restFps >= 5),
          target('click to frame p50 (REST tap → stream)', '≤ 300 ms', restLatency.p50, 'ms', restLatency.p50 <= 300),
        ],
        notes: [
          'Latency is from sending the tap to the arrival of the first frame whose bytes differ from the frame before it; it includes up to one frame interval (100 ms at 10 frames/s) of waiting for the next tick.',
          'Screenshots on change send no frame while the screen stays the same, so they have no frames/s figure.',
        ],
      };
      return result;
    } finally {
      for (const viewer of viewers) viewer.close();
      raw.close();
      await rest.close();
      await perception.close();
      await hub.close();
      await Promise.all([iphone.close(), plain.close()]);
    }
  },
};
