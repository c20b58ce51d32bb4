import { z } from 'zod';
import type { AnthropicPlannerConfig } from './llm/anthropic-backend';
import type { OpenAiPlannerConfig } from './llm/openai-backend';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';

/** Which planners exist beside the offline one, and which one a task gets when it names none. */
export interface PlannerConfig {
  /** Default 'offline'. */
  default?: string;
  openai?: OpenAiPlannerConfig;
  anthropic?: AnthropicPlannerConfig;
}

/** The same, as it may appear in a JSON config file (`tasks.planners`). */
export const plannerConfigSchema = z.strictObject({
  default: z.string().min(1).optional(),
  openai: z
    .strictObject({
      baseURL: z.url().optional(),
      model: z.string().min(1),
      apiKey: z.string().optional(),
      timeoutMs: z.number().int().positive().optional(),
      maxOutputTokens: z.number().int().positive().optional(),
    })
    .optional(),
  anthropic: z
    .strictObject({
      apiKey: z.string().min(1),
      model: z.string().min(1).default(DEFAULT_ANTHROPIC_MODEL),
      baseURL: z.url().optional(),
      timeoutMs: z.number().int().positive().optional(),
      maxOutputTokens: z.number().int().positive().optional(),
    })
    .optional(),
});

/**
 * Planners from the environment:
 * - OpenAI-compatible when `APEX_LLM_MODEL` is set (`APEX_LLM_BASE_URL`, `APEX_LLM_API_KEY` optional);
 * - Anthropic when `ANTHROPIC_API_KEY` is set (`APEX_ANTHROPIC_MODEL`, `APEX_ANTHROPIC_BASE_URL` optional);
 * - the default from `APEX_TASK_PLANNER`.
 * Explicit `config` fields win over the environment.
 */
export function resolvePlannerConfig(env: NodeJS.ProcessEnv, config: PlannerConfig = {}): PlannerConfig {
  const result: PlannerConfig = { ...config };
  const model = env['APEX_LLM_MODEL']?.trim();
  if (!result.openai && model) {
    result.openai = { model, baseURL: env['APEX_LLM_BASE_URL']?.trim() || undefined, apiKey: env['APEX_LLM_API_KEY']?.trim() || undefined };
  }
  const anthropicKey = env['ANTHROPIC_API_KEY']?.trim();
  if (!result.anthropic && anthropicKey) {
    result.anthropic = {
      apiKey: anthropicKey,
      model: env['APEX_ANTHROPIC_MODEL']?.trim() || DEFAULT_ANTHROPIC_MODEL,
      baseURL: env['APEX_ANTHROPIC_BASE_URL']?.trim() || undefined,
    };
  }
  result.default ??= env['APEX_TASK_PLANNER']?.trim() || undefined;
  return result;
}
