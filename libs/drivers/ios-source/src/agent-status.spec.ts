import { agentStatusFields } from './agent-status';

describe('agentStatusFields', () => {
  it('reads the foreground app, the battery and the lock as the agent reports them', () => {
    expect(
      agentStatusFields({
        activeApp: { bundleId: 'com.apple.Preferences', name: 'Settings', pid: 42, processArguments: {} },
        battery: { level: 0.8, state: 2 },
        locked: false,
      }),
    ).toEqual({ foregroundApp: { appId: 'com.apple.Preferences', name: 'Settings' }, battery: { level: 0.8, state: 'charging' }, locked: false });
  });

  it('leaves out what is missing or unreadable', () => {
    expect(agentStatusFields({ activeApp: undefined, battery: undefined, locked: undefined })).toEqual({});
    expect(Object.keys(agentStatusFields({ activeApp: { bundleId: '' }, battery: { level: -1, state: 0 }, locked: 'no' }))).toEqual([]);
  });

  it('keeps an app without a name, caps the level at 1 and reads an unknown state as unknown', () => {
    expect(agentStatusFields({ activeApp: { bundleId: 'com.x' }, battery: { level: 1.5, state: 9 }, locked: true })).toEqual({
      foregroundApp: { appId: 'com.x' },
      battery: { level: 1, state: 'unknown' },
      locked: true,
    });
  });
});
