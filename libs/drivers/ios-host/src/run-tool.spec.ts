import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool, ToolMissing } from './run-tool';

/** Node itself stands in for a host tool: real processes, real pipes. */
const node = (script: string) => [process.execPath, ['-e', script]] as const;

describe('running a host tool', () => {
  const signal = new AbortController().signal;

  it('passes input on stdin and returns what it printed and how it ended', async () => {
    const [command, args] = node("let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>{process.stdout.write('got '+s);process.stderr.write('warned');process.exit(3)})");
    expect(await runTool(command, args, { signal, input: '{"aps":{}}' })).toEqual({ stdout: 'got {"aps":{}}', stderr: 'warned', code: 3 });
  });

  it('gives a tool no stdin unless asked (it reads end of input at once)', async () => {
    const [command, args] = node("process.stdin.on('data',()=>{}).on('end',()=>process.stdout.write('eof'))");
    expect((await runTool(command, args, { signal })).stdout).toBe('eof');
  });

  it('says which tool is missing', async () => {
    const error = await runTool('apex-no-such-tool', [], { signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolMissing);
    expect((error as ToolMissing).tool).toBe('apex-no-such-tool');
  });

  it('finds a tool by name on the PATH it is given, and only when that file may be run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'apex-tool-'));
    try {
      writeFileSync(path.join(dir, 'apex-stand-in'), `#!${process.execPath}\nprocess.stdout.write('ran')\n`, { mode: 0o755 });
      writeFileSync(path.join(dir, 'apex-not-runnable'), 'not a program', { mode: 0o644 });
      const env = { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}` };
      expect(await runTool('apex-stand-in', [], { signal, env })).toEqual({ stdout: 'ran', stderr: '', code: 0 });
      await expect(runTool('apex-stand-in', [], { signal })).rejects.toBeInstanceOf(ToolMissing);
      await expect(runTool('apex-not-runnable', [], { signal, env })).rejects.toBeInstanceOf(ToolMissing);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends the tool when the call is aborted, and rejects with the reason', async () => {
    const controller = new AbortController();
    const [command, args] = node("process.stdout.write('started');setInterval(()=>{},1000)");
    const running = runTool(command, args, { signal: controller.signal });
    // Abort once it runs; a tool that ignored the abort would keep this promise pending forever.
    setImmediate(() => controller.abort(new Error('too slow')));
    await expect(running).rejects.toThrow('too slow');
  });
});
