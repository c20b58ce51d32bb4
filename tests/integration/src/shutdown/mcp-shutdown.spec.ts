import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { eventually } from '@apex/testing';
import { RecordingProxy } from '../driver-wda/support/recording-proxy';
import { spawnApex, writeConfig, type SpawnedApex } from './spawned';

interface JsonRpcReply {
  id: number;
  result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
  error?: unknown;
}

/** `apex mcp` spoken to over its stdio in plain JSON-RPC lines, to see exactly what it answers before it exits. */
function mcpSession(run: SpawnedApex) {
  const replies: JsonRpcReply[] = [];
  const waiters = new Map<number, (reply: JsonRpcReply) => void>();
  createInterface({ input: run.child.stdout }).on('line', (line) => {
    const reply = JSON.parse(line) as JsonRpcReply;
    replies.push(reply);
    waiters.get(reply.id)?.(reply);
  });
  const send = (message: object) => run.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    replies,
    request(id: number, method: string, params: object): Promise<JsonRpcReply> {
      const answered = new Promise<JsonRpcReply>((resolve) => waiters.set(id, resolve));
      send({ id, method, params });
      return answered;
    },
    notify: (method: string) => send({ method }),
  };
}

describe('apex mcp shuts down gracefully (spawned)', () => {
  let dir: string;
  let phone: VirtualIPhone;
  let proxy: RecordingProxy;
  let run: SpawnedApex | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apex-mcp-shutdown-it-'));
    phone = await startVirtualIPhone();
    proxy = await new RecordingProxy(phone.url).start();
  });

  afterAll(async () => {
    if (run && run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    if (run) rmSync(run.dataDir, { recursive: true, force: true });
    await proxy.close();
    await phone.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on SIGTERM reads no more requests, answers the tool call in flight, and exits 0', async () => {
    run = spawnApex(['mcp', '--config', writeConfig(dir, { 'slow-phone': proxy.url })], { logLevel: 'info' });
    const mcp = mcpSession(run);
    const init = await mcp.request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'it', version: '1' } });
    expect(init.result).toBeDefined();
    mcp.notify('notifications/initialized');

    proxy.hold((request) => request.path.endsWith('/wda/tap'));
    const tap = mcp.request(2, 'tools/call', { name: 'tap', arguments: { device: 'slow-phone', x: 20, y: 20 } });
    await eventually(() => proxy.heldCount === 1, { timeoutMs: 30_000, what: 'the tap to reach the phone' });

    run.child.kill('SIGTERM');
    await run.stderrLine(/mcp: stopping/);
    // Sent after the signal: never read, so never answered.
    void mcp.request(3, 'tools/call', { name: 'list_devices', arguments: {} });
    proxy.release();
    const answered = await tap;
    expect(answered.result?.isError).toBeUndefined();
    expect(answered.result?.structuredContent).toMatchObject({ tapped: { x: 20, y: 20 } });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(mcp.replies.map((reply) => reply.id)).toEqual([1, 2]);
  });
});
