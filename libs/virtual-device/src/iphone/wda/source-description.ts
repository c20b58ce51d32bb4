import { integralRect } from './attributes';
import type { TreeNode, UiTree } from './tree';

/** `/source?format=description`: an indented outline in the spirit of XCUIElement's debugDescription. */
export function descriptionSource(tree: UiTree): string {
  const lines: string[] = [];
  const describe = (node: TreeNode, depth: number) => {
    const e = node.element;
    const r = integralRect(e.rect);
    let line = `${'  '.repeat(depth)}${depth === 0 ? '→' : ''}${e.type}, {{${r.x}, ${r.y}}, {${r.width}, ${r.height}}}`;
    if (depth === 0) line += `, pid: ${tree.app.pid}`;
    if (e.identifier) line += `, identifier: '${e.identifier}'`;
    if (e.label) line += `, label: '${e.label}'`;
    if (e.placeholder) line += `, placeholderValue: '${e.placeholder}'`;
    if (e.value) line += `, value: ${e.value}`;
    if (e.selected) line += ', Selected';
    if (!e.enabled) line += ', Disabled';
    lines.push(line);
    for (const child of node.children) describe(child, depth + 1);
  };
  describe(tree.root, 0);
  return `Attributes: ${lines[0]?.replace(/^→/, '')}\nElement subtree:\n ${lines.join('\n ')}\n`;
}
