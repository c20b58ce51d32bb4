import { DEVICE_OPERATIONS, type OperationContext } from '@apex/capability';
import { resolvePlannerConfig, type PlannerFileConfig } from '../planners/planner-config';
import { PlannerRegistry } from '../planners/planner-registry';
import { resolveDataDir } from '../store/data-dir';
import { catalogDevices } from './task-devices';
import { TaskService, type TaskServiceOptions } from './task-service';

export interface CreateTaskServiceOptions extends Partial<Omit<TaskServiceOptions, 'devices' | 'planners'>> {
  context: OperationContext;
  /** Read for APEX_DATA_DIR and the planner variables (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Planner settings from a config file; the environment fills in what it lacks. */
  planners?: PlannerFileConfig;
}

/** A task service over the device operations catalog, as the runtime builds it. */
export function createTaskService(options: CreateTaskServiceOptions): TaskService {
  const env = options.env ?? process.env;
  const { context, planners, env: _env, ...rest } = options;
  return new TaskService({
    ...rest,
    dataDir: resolveDataDir({ explicit: options.dataDir }, env),
    devices: catalogDevices(context),
    planners: new PlannerRegistry(resolvePlannerConfig(env, planners), DEVICE_OPERATIONS),
  });
}
