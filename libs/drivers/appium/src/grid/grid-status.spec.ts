import { isApexError } from '@apex/errors';
import { parseGridStatus } from './grid-status';

const stereotype = { platformName: 'IOS', 'appium:udid': 'phone-a', 'appium:deviceName': 'iPhone A' };

/** The shape Selenium Grid 4.48 answers `GET /status` with (trimmed to what Apex reads, plus noise it ignores). */
function status(nodes: unknown[]): unknown {
  return { value: { ready: true, message: 'Selenium Grid ready.', nodes } };
}

describe('parseGridStatus', () => {
  it('lists every slot with its node health, stereotype and holding session', () => {
    const slots = parseGridStatus(
      status([
        {
          id: 'node-1',
          uri: 'http://127.0.0.1:5555',
          availability: 'UP',
          maxSessions: 1,
          slots: [{ id: { hostId: 'node-1', id: 'slot-1' }, lastStarted: '1970-01-01T00:00:00Z', session: null, stereotype }],
        },
        {
          id: 'node-2',
          availability: 'DOWN',
          slots: [
            {
              id: { hostId: 'node-2', id: 'slot-2' },
              session: { sessionId: 'S9', capabilities: {}, stereotype },
              stereotype: { ...stereotype, 'appium:udid': 'phone-b' },
            },
          ],
        },
      ]),
    );
    expect(slots).toEqual([
      { nodeId: 'node-1', nodeUp: true, slotId: 'slot-1', stereotype, sessionId: undefined },
      { nodeId: 'node-2', nodeUp: false, slotId: 'slot-2', stereotype: { ...stereotype, 'appium:udid': 'phone-b' }, sessionId: 'S9' },
    ]);
  });

  it('reads a hub without nodes as no slots', () => {
    expect(parseGridStatus(status([]))).toEqual([]);
  });

  it('refuses a reply that is not a Grid status with device_error', () => {
    for (const reply of [{ value: { ready: true, build: {} } }, null, 'text', { value: { nodes: [{ id: 1 }] } }]) {
      let error: unknown;
      try {
        parseGridStatus(reply);
      } catch (caught) {
        error = caught;
      }
      expect(isApexError(error) && error.code).toBe('device_error');
    }
  });
});
