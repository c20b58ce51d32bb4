import { z } from 'zod';
import type { AnthropicPlannerConfig } from './llm/anthropic-backend';
import type { OpenAiPlannerConfig } from './llm/openai-backend';

/** A current Sonnet from the SDK's model list (4.5 is deprecated as of this SDK). */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';

/** Which planners exist beside the offline one, and which one a task gets when it names none. */
export interface PlannerConfig {
  /** Default 'offline'. */
  default?: string;
  openai?: OpenAiPlannerConfig;
  anthropic?: AnthropicPlannerConfig;
}

/** Where and how to reach one model provider; both providers take the same settings. */
const modelEndpointSchema = z.strictObject({
  baseURL: z.url().optional(),
  model: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
});

/**
 * The planner settings of a configuration file (`"tasks": {"planners": …}`). Every field is optional: the
 * environment fills in the rest (keep API keys there rather than in a file).
 */
export const plannerConfigSchema = z.strictObject({
  default: z.string().min(1).optional().describe('offline, openai or anthropic'),
  openai: modelEndpointSchema.optional(),
  anthropic: modelEndpointSchema.optional(),
});
export type PlannerFileConfig = z.infer<typeof plannerConfigSchema>;

function env(vars: NodeJS.ProcessEnv, name: string): string | undefined {
  return vars[name]?.trim() || undefined;
}

/**
 * The planners to offer, from a config file's settings and the environment (the file wins field by field):
 * - OpenAI-compatible when a model is known: `APEX_LLM_MODEL`, `APEX_LLM_BASE_URL`, `APEX_LLM_API_KEY`;
 * - Anthropic when an API key is known: `ANTHROPIC_API_KEY`, `APEX_ANTHROPIC_MODEL`, `APEX_ANTHROPIC_BASE_URL`;
 * - the default planner from `APEX_TASK_PLANNER`.
 */
export function resolvePlannerConfig(vars: NodeJS.ProcessEnv, file: PlannerFileConfig = {}): PlannerConfig {
  const result: PlannerConfig = {};
  const openAiModel = file.openai?.model ?? env(vars, 'APEX_LLM_MODEL');
  if (openAiModel) {
    result.openai = {
      ...file.openai,
      model: openAiModel,
      baseURL: file.openai?.baseURL ?? env(vars, 'APEX_LLM_BASE_URL'),
      apiKey: file.openai?.apiKey ?? env(vars, 'APEX_LLM_API_KEY'),
    };
  }
  const anthropicKey = file.anthropic?.apiKey ?? env(vars, 'ANTHROPIC_API_KEY');
  if (anthropicKey) {
    result.anthropic = {
      ...file.anthropic,
      apiKey: anthropicKey,
      model: file.anthropic?.model ?? env(vars, 'APEX_ANTHROPIC_MODEL') ?? DEFAULT_ANTHROPIC_MODEL,
      baseURL: file.anthropic?.baseURL ?? env(vars, 'APEX_ANTHROPIC_BASE_URL'),
    };
  }
  const defaultName = file.default ?? env(vars, 'APEX_TASK_PLANNER');
  if (defaultName) result.default = defaultName;
  return result;
}
