import { elementId, ElementIds } from './element-id';
import { normalizeXmlSource } from './normalize-xml';

describe('element ids', () => {
  it('are 6 hex characters, the same for the same element', () => {
    const bounds = { x: 10.4, y: 20, width: 100, height: 44 };
    const id = elementId('button', bounds, 'OK', [0, 1]);
    expect(id).toMatch(/^[0-9a-f]{6}$/);
    expect(elementId('button', { ...bounds, x: 9.6 }, 'OK', [0, 1])).toBe(id);
    expect(elementId('button', bounds, 'OK', [0, 2])).not.toBe(id);
  });

  it('give colliding ids -2, -3 in order, and leave the others alone', () => {
    const ids = new ElementIds();
    expect(['abc123', 'abc123', 'ffffff', 'abc123', 'ffffff'].map((id) => ids.unique(id))).toEqual([
      'abc123',
      'abc123-2',
      'ffffff',
      'abc123-3',
      'ffffff-2',
    ]);
  });

  it('are unique and deterministic on a screen whose elements hash alike', () => {
    // Siblings hash apart by their index paths, so a real collision is forced by allocating one element twice.
    const ids = new ElementIds();
    const twice = [ids.of('text', { x: 0, y: 0, width: 1, height: 1 }, 'a', [0]), ids.of('text', { x: 0, y: 0, width: 1, height: 1 }, 'a', [0])];
    expect(twice[1]).toBe(`${twice[0]}-2`);
    const xml =
      '<XCUIElementTypeApplication type="XCUIElementTypeApplication" x="0" y="0" width="390" height="844">' +
      '<XCUIElementTypeButton type="XCUIElementTypeButton" label="A" x="1" y="2" width="3" height="4"/>' +
      '<XCUIElementTypeButton type="XCUIElementTypeButton" label="A" x="1" y="2" width="3" height="4"/>' +
      '</XCUIElementTypeApplication>';
    const first = normalizeXmlSource(xml, 'd1');
    expect(normalizeXmlSource(xml, 'd1')).toEqual(first);
    const all = [first.id, ...first.children.map((c) => c.id)];
    expect(new Set(all).size).toBe(all.length);
  });
});
