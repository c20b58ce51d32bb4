import { z } from 'zod';
import { flowSchema, WRITTEN_FORMS } from './flow-schema';

/** Where the committed copy lives, from the repository's root (examples point their editors at it). */
export const FLOW_JSON_SCHEMA_PATH = 'schemas/flow.schema.json';

/**
 * The JSON Schema (draft-07) of a flow file, for editors (`# yaml-language-server: $schema=…`), generated from
 * the one zod schema: each shorthand and each step shows the forms a person writes (WRITTEN_FORMS), so an
 * editor completes step names and flags a wrong key; the zod schema still decides at run time.
 */
export function flowJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Apex flow',
    description: 'Steps replayed on a phone without a model: apex run FILE, POST /flows/run, MCP run_flow.',
    ...editorSchema(flowSchema),
  };
}

function editorSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    // A transform has no JSON form; every one in the flow schema has a written form, put in place here.
    unrepresentable: 'any',
    override: (ctx) => {
      const form = WRITTEN_FORMS.get(ctx.zodSchema as unknown as z.ZodType);
      if (!form) return;
      const target = ctx.jsonSchema as Record<string, unknown>;
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, editorSchema(form));
    },
  }) as Record<string, unknown>;
  return rest;
}

/** The committed file's text: what `npx nx run tasks:flow-schema` writes. */
export function flowJsonSchemaText(): string {
  return `${JSON.stringify(flowJsonSchema(), null, 2)}\n`;
}
