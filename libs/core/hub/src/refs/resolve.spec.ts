import { ApexError } from '@apex/errors';
import type { Role, UiNode } from '@apex/port';
import { DeviceHub } from '../hub/device-hub';
import { getUiTree } from '../primitives/ui-tree';
import { FakeDriver } from '../testing';
import { deviceRefs, resolveRef, treeRefs } from './resolve';

function node(role: Role, label: string | undefined, y: number, children: UiNode[] = []): UiNode {
  return { id: `${role}-${label}`, role, label, bounds: { x: 0, y, width: 390, height: 44 }, enabled: true, visible: true, selected: false, focused: false, children };
}

/** A driver showing the same small Settings screen every time. */
function settingsPhone(): FakeDriver {
  const driver = new FakeDriver();
  const rows = ['Wi-Fi', 'Bluetooth', 'General', 'About'].map((label, i) => node('button', label, 100 + i * 44));
  driver.behave('uiTree', async () => ({ ...node('app', 'Settings', 0, rows), bounds: { x: 0, y: 0, width: 390, height: 844 } }));
  return driver;
}

async function errorOf(promise: Promise<unknown>): Promise<ApexError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error as ApexError;
  }
}

describe('refs live as long as the device registration', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('drops a device\'s refs when it is unregistered: registered again under the same id, its old refs name nothing', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'phone', driver: settingsPhone() });
    const tree = await getUiTree(hub, 'phone');
    const refs = treeRefs(hub, 'phone', tree);
    const all = (root: UiNode): UiNode[] => [root, ...root.children.flatMap(all)];
    const oldRefs = all(tree).map((n) => refs.refOf(n) as string);
    const general = refs.refOf(all(tree).find((n) => n.label === 'General') as UiNode) as string;
    expect((await resolveRef(hub, 'phone', general)).node?.label).toBe('General');

    await hub.unregister('phone');
    // Nothing of the registration is left: the hub has no refs for that id.
    expect(hub.has('phone')).toBe(false);
    expect(() => deviceRefs(hub, 'phone')).toThrow(expect.objectContaining({ code: 'device_not_found' }));

    // The same phone comes back (its pool offers it again) showing the same screen.
    hub.register({ id: 'phone', driver: settingsPhone() });
    for (const ref of oldRefs) {
      const error = await errorOf(resolveRef(hub, 'phone', ref));
      expect(error).toBeInstanceOf(ApexError);
      expect(error?.code).toBe('element_not_found');
      expect(error?.message).toMatch(/gone or the screen changed/);
    }
    // Its elements get new refs, none of them an old one.
    const again = await getUiTree(hub, 'phone');
    const newRefs = all(again).map((n) => treeRefs(hub, 'phone', again).refOf(n) as string);
    expect(newRefs.filter((ref) => oldRefs.includes(ref))).toEqual([]);
    const generalNow = newRefs[all(again).findIndex((n) => n.label === 'General')] as string;
    expect((await resolveRef(hub, 'phone', generalNow)).node?.label).toBe('General');
  });
});
