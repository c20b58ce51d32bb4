import { isApexError } from '@apex/errors';
import { createLogger, createRuntime, type Runtime, type RuntimeOptions } from '@apex/runtime';
import type { ParsedValues } from '../cli';

/**
 * The runtime of a one-shot command (`apex devices`, `apex run`) over `--config`, logging errors only; or, when
 * it cannot start, the exit code after the reason on stderr: 2 for a bad configuration (its fields listed),
 * 1 otherwise. The operator's own configuration is reported verbatim (it may name drivers, e.g. "wda").
 */
export async function startCommandRuntime(
  command: string,
  values: ParsedValues,
  options: Pick<RuntimeOptions, 'discover' | 'virtual'> = {},
): Promise<Runtime | number> {
  const configPath = typeof values.config === 'string' ? values.config : undefined;
  try {
    return await createRuntime({ configPath, logger: createLogger({ level: process.env.APEX_LOG_LEVEL ?? 'error' }), ...options });
  } catch (error) {
    if (!isApexError(error)) throw error;
    process.stderr.write(`apex ${command}: ${error.code}: ${error.message}\n`);
    for (const issue of error.issues ?? []) process.stderr.write(`  - ${issue.path || '(top level)'}: ${issue.message}\n`);
    if (error.hint) process.stderr.write(`${error.hint}\n`);
    return error.code === 'invalid_argument' ? 2 : 1;
  }
}
