import { DEVICE_OPERATIONS } from '@apex/capability';
import { DEFAULT_ANTHROPIC_MODEL, plannerConfigSchema, resolvePlannerConfig } from './planner-config';
import { PlannerRegistry } from './planner-registry';

describe('planner configuration', () => {
  it('offers the offline planner (and the flow planner run_flow uses) with nothing configured', () => {
    const registry = new PlannerRegistry(resolvePlannerConfig({}), DEVICE_OPERATIONS);
    expect(registry.names()).toEqual(['offline', 'flow']);
    expect(registry.defaultName).toBe('offline');
  });

  it('reads the model planners and the default from the environment', () => {
    const config = resolvePlannerConfig({
      APEX_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      APEX_LLM_MODEL: 'llama3.1',
      ANTHROPIC_API_KEY: 'sk-ant',
      APEX_TASK_PLANNER: 'anthropic',
    });
    expect(config).toEqual({
      openai: { model: 'llama3.1', baseURL: 'http://127.0.0.1:11434/v1', apiKey: undefined },
      anthropic: { apiKey: 'sk-ant', model: DEFAULT_ANTHROPIC_MODEL, baseURL: undefined },
      default: 'anthropic',
    });
    const registry = new PlannerRegistry(config, DEVICE_OPERATIONS);
    expect(registry.names()).toEqual(['offline', 'flow', 'openai', 'anthropic']);
    expect(registry.get().name).toBe('anthropic');
  });

  it('lets a config file set models and the default, with keys from the environment', () => {
    const file = plannerConfigSchema.parse({ default: 'openai', openai: { model: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1' }, anthropic: { model: 'claude-y' } });
    const config = resolvePlannerConfig({ APEX_LLM_MODEL: 'ignored', ANTHROPIC_API_KEY: 'k' }, file);
    expect(config.openai).toMatchObject({ model: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1' });
    expect(config.anthropic).toMatchObject({ model: 'claude-y', apiKey: 'k' });
    expect(config.default).toBe('openai');
  });

  it('refuses a default planner that is not available, naming the ones that are', () => {
    expect(() => new PlannerRegistry(resolvePlannerConfig({ APEX_TASK_PLANNER: 'openai' }), DEVICE_OPERATIONS)).toThrow(
      /"openai" is not available; available: offline/,
    );
  });

  it('rejects unknown fields in a config file', () => {
    expect(plannerConfigSchema.safeParse({ openai: { modle: 'x' } }).success).toBe(false);
  });
});
