import { ApexError, invalidArgument } from '@apex/errors';
import type { AnyOperation } from '@apex/capability';
import type { Planner } from '../agent/planner';
import { AgentToolbox } from './llm/agent-tools';
import { anthropicBackend } from './llm/anthropic-backend';
import { LlmPlanner } from './llm/llm-planner';
import { openAiBackend } from './llm/openai-backend';
import { createFlowPlanner, FLOW_PLANNER_NAME } from '../flows/flow-planner';
import { OFFLINE_PLANNER, OfflinePlanner } from './offline-planner';
import type { PlannerConfig } from './planner-config';

export const KNOWN_PLANNERS = [OFFLINE_PLANNER, FLOW_PLANNER_NAME, 'openai', 'anthropic'] as const;

const HOW_TO_CONFIGURE: Record<string, string> = {
  openai: 'set APEX_LLM_MODEL (and APEX_LLM_BASE_URL, APEX_LLM_API_KEY) to use it',
  anthropic: 'set ANTHROPIC_API_KEY (and optionally APEX_ANTHROPIC_MODEL) to use it',
};

/** The planners this process can use, built once from the configuration. */
export class PlannerRegistry {
  private readonly planners = new Map<string, Planner>();
  readonly defaultName: string;

  constructor(config: PlannerConfig, operations: readonly AnyOperation[]) {
    this.planners.set(OFFLINE_PLANNER, new OfflinePlanner());
    this.planners.set(FLOW_PLANNER_NAME, createFlowPlanner());
    const tools = new AgentToolbox(operations);
    if (config.openai) this.planners.set('openai', new LlmPlanner('openai', openAiBackend(config.openai), tools));
    if (config.anthropic) this.planners.set('anthropic', new LlmPlanner('anthropic', anthropicBackend(config.anthropic), tools));
    const wanted = config.default ?? OFFLINE_PLANNER;
    if (!this.planners.has(wanted)) {
      throw new ApexError('invalid_argument', `The default planner "${wanted}" is not available; available: ${this.names().join(', ')}.`, {
        hint: HOW_TO_CONFIGURE[wanted] ?? `Use one of: ${this.names().join(', ')}.`,
      });
    }
    this.defaultName = wanted;
  }

  names(): string[] {
    return [...this.planners.keys()];
  }

  /** The named planner (or the default); `invalid_argument` naming the available ones otherwise. */
  get(name?: string): Planner {
    const planner = this.planners.get(name ?? this.defaultName);
    if (planner) return planner;
    const available = this.names().join(', ');
    const how = name && HOW_TO_CONFIGURE[name];
    throw invalidArgument(
      how ? `The planner "${name}" is not configured; available: ${available}.` : `Unknown planner "${name}"; available: ${available}.`,
      [{ path: 'planner', message: `must be one of: ${available}` }],
      how || `Use one of: ${available}.`,
    );
  }
}
