import { resolveToolsets, splitToolsetList, type Toolset } from '@apex/capability';
import type { ApexConfig } from './config';

export interface McpToolsetsSources {
  /** `--toolsets a,b` as given on the command line. */
  flag?: string;
  /** The environment: APEX_TOOLSETS. */
  env: NodeJS.ProcessEnv;
  /** The configuration file's `mcp.toolsets` (already checked by its schema). */
  config?: ApexConfig;
}

/**
 * The toolsets the MCP face starts with: `--toolsets`, else APEX_TOOLSETS, else the configuration's
 * `mcp.toolsets`, else `default`. An unknown name is an `invalid_argument` naming the valid ones and where it
 * came from, so the process refuses to start instead of serving a surprising tool list.
 */
export function mcpToolsets({ flag, env, config }: McpToolsetsSources): Toolset[] {
  if (flag !== undefined) return resolveToolsets(splitToolsetList(flag), '--toolsets');
  const fromEnv = env.APEX_TOOLSETS;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolveToolsets(splitToolsetList(fromEnv), 'APEX_TOOLSETS');
  return resolveToolsets(config?.mcp?.toolsets ?? ['default'], 'mcp.toolsets');
}
