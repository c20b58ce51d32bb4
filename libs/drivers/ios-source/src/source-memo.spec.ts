import type { UiNode } from '@apex/port';
import { SourceMemo } from './source-memo';

function leaf(label: string): UiNode {
  return { id: label, role: 'text', label, bounds: { x: 0, y: 0, width: 1, height: 1 }, enabled: true, visible: true, selected: false, focused: false, children: [] };
}

describe('SourceMemo', () => {
  it('builds a tree once per unchanged source, and again when the source or the scale changes', () => {
    const memo = new SourceMemo();
    const builds: string[] = [];
    const build = (label: string) => () => {
      builds.push(label);
      return { ...leaf('root'), children: [leaf(label)] };
    };
    const first = memo.treeOf('<a/>', 1, build('a'));
    expect(memo.treeOf('<a/>', 1, build('a'))).toBe(first);
    expect(memo.treeOf('<b/>', 1, build('b')).children[0]?.label).toBe('b');
    expect(memo.treeOf('<b/>', 2, build('b2')).children[0]?.label).toBe('b2');
    expect(builds).toEqual(['a', 'b', 'b2']);
  });

  it('freezes the tree it hands out, so one reader cannot change what the next is given', () => {
    const memo = new SourceMemo();
    const tree = memo.treeOf('<a/>', 1, () => ({ ...leaf('root'), children: [leaf('child')] }));
    const child = tree.children[0] as UiNode;
    expect(() => tree.children.push(leaf('more'))).toThrow(TypeError);
    expect(() => {
      (child as { label?: string }).label = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (child.bounds as { x: number }).x = 5;
    }).toThrow(TypeError);
    expect(memo.treeOf('<a/>', 1, () => leaf('never')).children.map((c) => c.label)).toEqual(['child']);
  });
});
