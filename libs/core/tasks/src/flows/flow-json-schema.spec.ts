import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { FLOW_JSON_SCHEMA_PATH, flowJsonSchema, flowJsonSchemaText } from './flow-json-schema';
import { flowSchema, STEP_KINDS } from './flow-schema';

const ROOT = path.resolve(__dirname, '../../../../..');
const COMMITTED = path.join(ROOT, FLOW_JSON_SCHEMA_PATH);

type Json = Record<string, unknown>;
const stepForms = () => (((flowJsonSchema()['properties'] as Json)['steps'] as Json)['items'] as Json)['anyOf'] as Json[];
const formOf = (kind: string) => (stepForms().find((f) => (f['required'] as string[])[0] === kind)?.['properties'] as Json)[kind] as Json;

describe('the JSON Schema of flow files, for editors', () => {
  it('is committed as generated from the zod schema (regenerate: npx nx run tasks:flow-schema)', () => {
    if (process.env.APEX_UPDATE_FLOW_SCHEMA === '1') writeFileSync(COMMITTED, flowJsonSchemaText());
    expect(readFileSync(COMMITTED, 'utf8')).toBe(flowJsonSchemaText());
  });

  it('offers one form per step, each an object with that one key, and the shorthands people write', () => {
    expect(stepForms().map((f) => [f['required'], f['additionalProperties']])).toEqual(STEP_KINDS.map((kind) => [[kind], false]));
    // `tap: General` and `tap: {label: Done, role: button}`; `swipe: up`; `long_press: Photo 1`.
    expect((formOf('tap')['anyOf'] as Json[]).map((f) => f['type'])).toEqual(['string', 'object']);
    expect((formOf('swipe')['anyOf'] as Json[])[0]).toMatchObject({ type: 'string', enum: ['up', 'down', 'left', 'right'] });
    expect((formOf('long_press')['anyOf'] as Json[]).map((f) => f['type'])).toEqual(['string', 'object']);
    expect(formOf('handle_alert')['anyOf']).toEqual([expect.objectContaining({ enum: ['accept', 'dismiss'] }), expect.objectContaining({ required: ['press'] })]);
    expect(flowJsonSchema()).toMatchObject({ type: 'object', required: ['name', 'steps'], additionalProperties: false });
    // Nothing left that an editor reads as "anything": every transform has its written form.
    expect(flowJsonSchemaText()).not.toMatch(/: \{\}/);
  });

  it('is what the example flows point their editors at', () => {
    const example = readFileSync(path.join(ROOT, 'examples/flows/settings-about.yaml'), 'utf8');
    const [, ref] = /^# yaml-language-server: \$schema=(\S+)$/m.exec(example) ?? [];
    expect(ref && path.resolve(ROOT, 'examples/flows', ref)).toBe(COMMITTED);
  });

  it('judges flows as the runner does: a validator (ajv) accepts what the zod schema accepts and refuses what it refuses', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(COMMITTED, 'utf8')));
    const example = parse(readFileSync(path.join(ROOT, 'examples/flows/settings-about.yaml'), 'utf8')) as unknown;
    const good: unknown[] = [
      example,
      {
        name: 'every form',
        app: 'Settings',
        heal: 'agent',
        vars: { who: 'Ada' },
        steps: [
          { launch: 'Notes' },
          { tap: 'General' },
          { tap: { label: 'Done', role: 'button' } },
          { double_tap: { text: 'Photo', index: 1 } },
          { long_press: 'Photo 1' },
          { long_press: { selector: { icon: 'trash' }, durationMs: 800 } },
          { type: 'hello ${who}' },
          { type: { text: 'coffee', into: { label: 'Search' }, submit: true } },
          { swipe: 'up' },
          { scroll_until: { text: 'Wallpaper', direction: 'up', maxSwipes: 5 } },
          { press: 'home' },
          { open_url: 'https://apex.example/' },
          { wait_for: { text: 'About', gone: false, timeoutMs: 2000 } },
          { assert_visible: { text: 'Model Name' } },
          { assert_not_visible: 'Airplane Mode' },
          { handle_alert: 'accept' },
          { handle_alert: { press: 'Allow Once' } },
          { set_orientation: 'landscape' },
          { hide_keyboard: true },
          { tap: { point: { x: 10, y: 20 } } },
        ],
      },
    ];
    const bad: unknown[] = [
      { steps: [{ tap: 'General' }] },
      { name: 'n', steps: [] },
      { name: 'n', steps: [{ fly: 'away' }] },
      { name: 'n', steps: [{ tap: 'A', swipe: 'up' }] },
      { name: 'n', steps: [{ swipe: 'sideways' }] },
      { name: 'n', steps: [{ press: 'power' }] },
      { name: 'n', heal: 'maybe', steps: [{ tap: 'A' }] },
      { name: 'n', steps: [{ tap: { text: 'A', colour: 'red' } }] },
      { name: 'n', steps: [{ hide_keyboard: false }] },
      { name: 'n', extra: 1, steps: [{ tap: 'A' }] },
    ];
    for (const flow of good) expect({ flow, zod: flowSchema.safeParse(flow).success, schema: validate(flow), errors: validate.errors }).toEqual({ flow, zod: true, schema: true, errors: null });
    for (const flow of bad) expect({ flow, zod: flowSchema.safeParse(flow).success, schema: validate(flow) }).toEqual({ flow, zod: false, schema: false });
  });
});
