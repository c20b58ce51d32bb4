import { FrameGate } from './frame-gate';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FrameGate', () => {
  function rig() {
    const decodes = new Map<string, ReturnType<typeof deferred>>();
    const shown: string[] = [];
    const dropped: string[] = [];
    const gate = new FrameGate(
      (url) => {
        const d = deferred();
        decodes.set(url, d);
        return d.promise;
      },
      (url) => shown.push(url),
      (url) => dropped.push(url),
    );
    return { gate, decodes, shown, dropped };
  }

  it('shows a frame once it decoded', async () => {
    const { gate, decodes, shown } = rig();
    gate.push('a');
    expect(shown).toEqual([]);
    decodes.get('a')!.resolve();
    await flush();
    expect(shown).toEqual(['a']);
  });

  it('while one frame decodes, keeps only the newest that arrived, and shows it next', async () => {
    const { gate, decodes, shown, dropped } = rig();
    gate.push('a');
    gate.push('b');
    gate.push('c');
    expect([...decodes.keys()]).toEqual(['a']);
    expect(dropped).toEqual(['b']);
    decodes.get('a')!.resolve();
    await flush();
    expect([...decodes.keys()]).toEqual(['a', 'c']);
    decodes.get('c')!.resolve();
    await flush();
    expect(shown).toEqual(['a', 'c']);
  });

  it('drops a frame that fails to decode and goes on with the next', async () => {
    const { gate, decodes, shown, dropped } = rig();
    gate.push('a');
    gate.push('b');
    decodes.get('a')!.reject(new Error('broken'));
    await flush();
    decodes.get('b')!.resolve();
    await flush();
    expect(dropped).toEqual(['a']);
    expect(shown).toEqual(['b']);
  });

  it('after close, shows nothing and drops what arrives or was waiting', async () => {
    const { gate, decodes, shown, dropped } = rig();
    gate.push('a');
    gate.push('b');
    gate.close();
    gate.push('c');
    decodes.get('a')!.resolve();
    await flush();
    expect(shown).toEqual([]);
    expect(dropped.sort()).toEqual(['a', 'b', 'c']);
  });
});
