import { isApexError } from '@apex/errors';
import { mcpToolsets, type Runtime } from '@apex/runtime';
import type { Toolset } from '@apex/capability';
import { UsageError, type ParsedValues } from '../cli';

/** `--toolsets a,b`: the MCP toolsets of `apex mcp` and `apex serve` (names, `default`, `all`). */
export const TOOLSETS_OPTION = { toolsets: { type: 'string' } } as const;

/**
 * Checks `--toolsets` and APEX_TOOLSETS before anything starts: a bad name is a usage error (exit 2) that
 * names the valid ones.
 */
export function checkToolsetsOption(values: ParsedValues): void {
  toolsetsOf(values);
}

/** The toolsets to serve: `--toolsets`, else APEX_TOOLSETS, else the configuration's `mcp.toolsets`, else `default`. */
export function toolsetsOf(values: ParsedValues, runtime?: Pick<Runtime, 'config'>): Toolset[] {
  try {
    return mcpToolsets({ flag: typeof values.toolsets === 'string' ? values.toolsets : undefined, env: process.env, config: runtime?.config });
  } catch (error) {
    if (isApexError(error)) throw new UsageError(error.message);
    throw error;
  }
}
