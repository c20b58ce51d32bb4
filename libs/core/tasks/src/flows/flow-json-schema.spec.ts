import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FLOW_JSON_SCHEMA_PATH, flowJsonSchema, flowJsonSchemaText } from './flow-json-schema';
import { STEP_KINDS } from './flow-schema';

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
});
