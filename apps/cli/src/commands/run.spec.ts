import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawnNode } from '@apex/testing';

const bin = path.resolve(__dirname, '../../bin/apex.js');
const EXAMPLE = path.resolve(__dirname, '../../../../examples/flows/settings-about.yaml');
// A deadline for a slow start on a loaded machine, not a timing check.
const EXIT = { timeoutMs: 90_000 };

describe('apex run', () => {
  let dir: string;
  const apex = (...args: string[]) => spawnNode([bin, 'run', ...args], { env: { ...process.env, APEX_DATA_DIR: path.join(dir, 'data'), APEX_CONFIG: '' } });
  const flowFile = (name: string, yaml: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, yaml);
    return file;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'apex-run-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("replays the repo's Settings → General → About flow on the embedded phone: a line per step, exit 0", async () => {
    const run = apex(EXAMPLE);
    expect(await run.waitForExit(EXIT)).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/^1\. launch_app \{"name":"Settings"\} → ok/m);
    expect(run.stdout()).toMatch(/tap \{"x":[\d.]+,"y":[\d.]+\} → ok: Step 2 \(tap\): cell "About"/);
    expect(run.stdout()).toMatch(/passed: Flow "About this iPhone"/);
  }, 120_000);

  it('exits 1 naming the step, the selector and what the screen showed when an element is not there', async () => {
    const run = apex(EXAMPLE, '--var', 'model=iPhone 99 Ultra');
    expect((await run.waitForExit(EXIT)).code).toBe(1);
    expect(run.stdout()).toMatch(/failed: target_not_found: Step 4 \(assert_visible\): text "iPhone 99 Ultra" is not on the screen .*it shows: Settings \| "About"/);
  }, 120_000);

  it('heals a step it cannot find with --heal-planner offline (heal: agent) and prints the change to make', async () => {
    const run = apex(flowFile('heal.yaml', 'name: Update\napp: Settings\nheal: agent\nsteps:\n  - tap: General\n  - tap: System Update\n'), '--heal-planner', 'offline');
    expect(await run.waitForExit(EXIT)).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/^3\. tap \{"ref":"e\d+"\} → ok: Step 2 \(tap\): healed by the offline planner/m);
    expect(run.stdout()).toMatch(/^suggested change to step 2: tap: System Update → tap: Software Update$/m);
  }, 120_000);

  it('exits 2 with the line and column of a bad flow, having run nothing', async () => {
    const run = apex(flowFile('bad.yaml', 'name: Bad\nsteps:\n  - tap: General\n  - tapp: About\n'));
    expect((await run.waitForExit(EXIT)).code).toBe(2);
    expect(run.stderr()).toMatch(/invalid_argument: Invalid flow/);
    expect(run.stderr()).toMatch(/line 4, column 5: unknown step "tapp"/);
    expect(run.stdout()).toBe('');
    const usage = apex();
    expect((await usage.waitForExit(EXIT)).code).toBe(2);
  }, 120_000);

  it('exits 2 for a YAML alias bomb (nothing run), naming the line of its first alias', async () => {
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'name: Bomb', 'steps: [*c]', ''].join('\n');
    const run = apex(flowFile('bomb.yaml', bomb));
    expect((await run.waitForExit(EXIT)).code).toBe(2);
    expect(run.stderr()).toMatch(/invalid_argument: The flow is not valid YAML: line 2, column \d+: its aliases expand to more than 50 nodes/);
    expect(run.stdout()).toBe('');
  }, 120_000);
});
