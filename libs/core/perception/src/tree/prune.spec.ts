import { SCREEN, settingsTree, uiNode } from '../testing/ui-nodes';
import type { UiTreeNode } from '../types';
import { pruneUiTree } from './prune';

function labels(node: UiTreeNode | undefined): string[] {
  if (!node) return [];
  return [node.label ?? `<${node.role}>`, ...(node.children ?? []).flatMap(labels)];
}

describe('pruneUiTree', () => {
  it('drops invisible and off-screen nodes and collapses text-less wrappers', () => {
    const result = pruneUiTree(settingsTree(), SCREEN);
    const all = labels(result.root);
    expect(all).not.toContain('Far Away');
    expect(result.root?.role).toBe('app');
    // The window groups two children and stays; the invisible node and each row's 'other' wrapper go.
    const [window] = result.root?.children ?? [];
    expect(result.root?.children).toHaveLength(1);
    expect(window.children?.map((c) => c.role)).toEqual(['navigationBar', 'list']);
    const wifi = window.children?.[1].children?.find((c) => c.id === 'row-Wi-Fi');
    expect(wifi?.children?.map((c) => c.role)).toEqual(['text']);
    expect(wifi?.center).toEqual({ x: 196.5, y: 186 });
    expect(result.nodeCount).toBe(all.length);
    expect(result.truncated).toBe(false);
  });

  it('keeps only actionable nodes and their containers with interactiveOnly, naming unlabeled cells from their text', () => {
    const result = pruneUiTree(settingsTree(), SCREEN, { interactiveOnly: true });
    const list = result.root?.children?.find((c) => c.role === 'list');
    expect(list?.children?.map((c) => [c.role, c.label])).toEqual([
      ['cell', 'Airplane Mode'],
      ['cell', 'Wi-Fi'],
      ['cell', 'Bluetooth'],
    ]);
    expect(list?.children?.[0].children).toEqual([
      expect.objectContaining({ role: 'switch', label: 'Airplane Mode', value: '0' }),
    ]);
    // The navigation bar holds nothing actionable.
    expect(result.root?.children?.some((c) => c.role === 'navigationBar')).toBe(false);
  });

  it('flattens in document order with depth and parent ids', () => {
    const result = pruneUiTree(settingsTree(), SCREEN, { interactiveOnly: true, format: 'flat' });
    expect(result.root).toBeUndefined();
    expect(result.nodes?.map((n) => [n.role, n.depth, n.parentId])).toEqual([
      ['app', 0, undefined],
      ['list', 1, 'app'],
      ['cell', 2, 'list'],
      ['switch', 3, 'row-Airplane Mode'],
      ['cell', 2, 'list'],
      ['cell', 2, 'list'],
    ]);
    expect(result.nodeCount).toBe(6);
  });

  it('cuts at maxDepth and says so', () => {
    const result = pruneUiTree(settingsTree(), SCREEN, { maxDepth: 1 });
    expect(result.truncated).toBe(true);
    expect(result.root?.children?.every((c) => c.children === undefined)).toBe(true);
    expect(pruneUiTree(settingsTree(), SCREEN, { maxDepth: 10 }).truncated).toBe(false);
  });

  it('marks only notable states and clips bounds to the screen', () => {
    const tree = uiNode('app', SCREEN, { id: 'app', label: 'X' }, [
      uiNode('button', { x: -20, y: 10, width: 60, height: 30 }, { id: 'b', label: 'Off', enabled: false, selected: true }),
    ]);
    const [button] = pruneUiTree(tree, SCREEN).root?.children ?? [];
    expect(button).toEqual({
      id: 'b',
      role: 'button',
      label: 'Off',
      bounds: { x: 0, y: 10, width: 40, height: 30 },
      center: { x: 20, y: 25 },
      disabled: true,
      selected: true,
    });
  });
});
