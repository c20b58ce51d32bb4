import { ApexError } from '@apex/errors';
import { thrownBy } from '@apex/errors/testing';
import { parseConfig } from './config';
import { mcpToolsets } from './mcp-toolsets';

const DEVICES = [{ id: 'iphone-a', driver: 'wda', url: 'http://127.0.0.1:8100' }];
const configured = (toolsets: string[]) => parseConfig({ devices: DEVICES, mcp: { toolsets } });

describe('the MCP toolsets an Apex process serves', () => {
  it('is the default set when nothing chooses', () => {
    expect(mcpToolsets({ env: {} })).toEqual(['devices', 'observe', 'act']);
    expect(mcpToolsets({ env: { APEX_TOOLSETS: '  ' }, config: parseConfig({ devices: DEVICES }) })).toEqual(['devices', 'observe', 'act']);
  });

  it('takes --toolsets over APEX_TOOLSETS over the configuration', () => {
    const config = configured(['tasks']);
    expect(mcpToolsets({ env: {}, config })).toEqual(['tasks']);
    expect(mcpToolsets({ env: { APEX_TOOLSETS: 'default,apps' }, config })).toEqual(['devices', 'observe', 'act', 'apps']);
    expect(mcpToolsets({ flag: 'gestures', env: { APEX_TOOLSETS: 'default,apps' }, config })).toEqual(['gestures']);
    expect(mcpToolsets({ flag: 'all', env: {} })).toHaveLength(10);
  });

  it('refuses an unknown name, saying where it came from and which names are valid', () => {
    const fromFlag = thrownBy(() => mcpToolsets({ flag: 'observe,everything', env: {} })) as ApexError;
    expect(fromFlag.code).toBe('invalid_argument');
    expect(fromFlag.message).toMatch(/^--toolsets: unknown toolset "everything"; valid: devices, observe, act, .*, default, all\.$/);
    expect(thrownBy(() => mcpToolsets({ env: { APEX_TOOLSETS: 'obsrve' } })).message).toMatch(/^APEX_TOOLSETS: unknown toolset "obsrve"; valid: /);
    expect(thrownBy(() => mcpToolsets({ flag: ',', env: {} })).message).toMatch(/^--toolsets names no toolset; valid: /);
  });

  it('checks mcp.toolsets in the configuration field by field', () => {
    const error = thrownBy(() => parseConfig({ devices: DEVICES, mcp: { toolsets: ['act', 'clicks'] } })) as ApexError;
    expect(error.code).toBe('invalid_argument');
    expect(error.issues).toEqual([{ path: 'mcp.toolsets', message: expect.stringMatching(/^Unknown toolset "clicks"; valid: devices, /) }]);
    expect(thrownBy(() => parseConfig({ devices: DEVICES, mcp: { tools: ['act'] } })).message).toMatch(/mcp/);
  });
});
