import { assignKeys, findByKey } from './tree-keys';
import type { UiNode } from './types';

function node(role: string, label: string | undefined, y: number, children: UiNode[] = []): UiNode {
  return { id: `${role}-${label}-${y}`, role, label, bounds: { x: 0, y, width: 100, height: 40 }, children };
}

describe('tree keys', () => {
  const read = (offset: number) =>
    assignKeys(node('app', 'Settings', 0, [node('cell', 'General', 200 + offset), node('cell', 'General', 240 + offset), node('cell', 'Privacy', 280 + offset)]));

  it('keep a node its key when it moved (its server id changed), and tell equal siblings apart', () => {
    const before = read(0);
    const after = read(-120);
    const [general, general2, privacy] = before.children ?? [];
    expect(after.children?.[0].id).not.toBe(general.id);
    expect(findByKey(after, general.key)?.bounds.y).toBe(80);
    expect(findByKey(after, general2.key)?.bounds.y).toBe(120);
    expect(findByKey(after, privacy.key)?.label).toBe('Privacy');
    expect(new Set([before.key, general.key, general2.key, privacy.key]).size).toBe(4);
  });

  it('finds nothing for a node that is gone, or no key', () => {
    const tree = read(0);
    expect(findByKey(tree, 'app:Settings/cell:Wallpaper#0')).toBeUndefined();
    expect(findByKey(tree, undefined)).toBeUndefined();
    expect(findByKey(undefined, tree.key)).toBeUndefined();
  });
});
