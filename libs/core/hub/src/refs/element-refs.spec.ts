import type { Rect, Role, UiNode } from '@apex/port';
import { DeviceRefs } from './element-refs';

const SCREEN: Rect = { x: 0, y: 0, width: 400, height: 800 };

function node(role: Role, label: string | undefined, bounds: Rect, children: UiNode[] = [], value?: string): UiNode {
  return { id: `${role}-${label}`, role, label, value, bounds, enabled: true, visible: true, selected: false, focused: false, children };
}

/** A Settings-like list whose rows start at `top` (scrolling moves them). */
function settings(top: number, rows: string[], switchValue = '0'): UiNode {
  const cells = rows.map((label, i) => node('cell', label, { x: 0, y: top + i * 44, width: 400, height: 44 }));
  const airplane = node('switch', 'Airplane Mode', { x: 300, y: top - 44, width: 60, height: 30 }, [], switchValue);
  return node('app', 'Settings', SCREEN, [node('list', undefined, SCREEN, [airplane, ...cells])]);
}

function refOfLabel(refs: DeviceRefs, root: UiNode, label: string): string {
  const walk = (n: UiNode): UiNode | undefined => (n.label === label ? n : n.children.map(walk).find(Boolean));
  const found = walk(root);
  if (!found) throw new Error(`no ${label}`);
  return refs.forTree(root).refOf(found) as string;
}

describe('element refs', () => {
  it('keep naming an element that moved (its list scrolled) or changed value, and resolve to its current centre', () => {
    const refs = new DeviceRefs();
    const before = settings(100, ['Wi-Fi', 'General', 'Display']);
    const general = refOfLabel(refs, before, 'General');
    const airplane = refOfLabel(refs, before, 'Airplane Mode');
    const scrolled = settings(12, ['Wi-Fi', 'General', 'Display'], '1');
    expect(refOfLabel(refs, scrolled, 'General')).toBe(general);
    expect(refOfLabel(refs, scrolled, 'Airplane Mode')).toBe(airplane);
    expect(refs.resolve(general, scrolled, SCREEN)?.center).toEqual({ x: 200, y: 12 + 44 + 22 });
  });

  it('resolve to nothing once the element left the screen, and are never given to another element', () => {
    const refs = new DeviceRefs();
    const first = settings(100, ['Wi-Fi', 'General']);
    const wifi = refOfLabel(refs, first, 'Wi-Fi');
    const gone = settings(100, ['General', 'Display']);
    expect(refs.resolve(wifi, gone, SCREEN)).toBeUndefined();
    const all = new Set<string>();
    const walk = (n: UiNode, tree: UiNode) => {
      all.add(refs.forTree(tree).refOf(n) as string);
      n.children.forEach((c) => walk(c, tree));
    };
    walk(gone, gone);
    expect(all.has(wifi)).toBe(false);
    // Scrolled wholly off the top: still in the tree, not on the screen.
    expect(refs.resolve(wifi, settings(-500, ['Wi-Fi', 'General']), SCREEN)).toBeUndefined();
  });

  it('give matches found in pixels refs valid only while the screen is unchanged', () => {
    const refs = new DeviceRefs();
    const screen = settings(100, ['Wi-Fi']);
    const bounds = { x: 10, y: 500, width: 80, height: 20 };
    const ref = refs.pixelRef(screen, bounds);
    expect(refs.pixelRef(screen, bounds)).toBe(ref);
    expect(refs.resolve(ref, settings(100, ['Wi-Fi']), SCREEN)?.center).toEqual({ x: 50, y: 510 });
    expect(refs.resolve(ref, settings(120, ['Wi-Fi']), SCREEN)).toBeUndefined();
  });

  it('tell same-identity siblings apart by their order', () => {
    const refs = new DeviceRefs();
    const tree = node('app', 'Notes', SCREEN, [
      node('button', 'Delete', { x: 0, y: 0, width: 50, height: 50 }),
      node('button', 'Delete', { x: 0, y: 100, width: 50, height: 50 }),
    ]);
    const [a, b] = tree.children.map((c) => refs.forTree(tree).refOf(c));
    expect(a).not.toBe(b);
    expect(refs.resolve(b as string, tree, SCREEN)?.center).toEqual({ x: 25, y: 125 });
  });
});
