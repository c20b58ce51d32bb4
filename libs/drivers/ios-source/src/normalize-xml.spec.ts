import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { UiNode } from '@apex/port';
import { ApexError } from '@apex/errors';
import { normalizeXmlSource } from './normalize-xml';

/** Hand-written sources in the shape a real device sends (attribute order and rules from the protocol reference). */
function sample(name: string): string {
  return readFileSync(path.join(__dirname, 'samples', name), 'utf8');
}

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

function find(root: UiNode, predicate: (n: UiNode) => boolean): UiNode {
  const found = flatten(root).find(predicate);
  if (!found) throw new Error('no such node');
  return found;
}

describe('normalizeXmlSource', () => {
  describe('a login form', () => {
    const root = normalizeXmlSource(sample('login-form.xml'), 'iphone-a');

    it('roots the tree at the application and maps types to neutral roles', () => {
      expect(root.role).toBe('app');
      expect(root.label).toBe('Demo');
      expect(root.bounds).toEqual({ x: 0, y: 0, width: 390, height: 844 });
      expect(root.children.map((c) => c.role)).toEqual(['window']);
      expect(root.children[0].children.map((c) => c.role)).toEqual([
        'navigationBar',
        'textField',
        'secureTextField',
        'textField',
        'switch',
        'text',
        'button',
        'button',
        'other',
      ]);
    });

    it('drops a static text value that only repeats its label, keeps a real one', () => {
      const title = find(root, (n) => n.role === 'text' && n.label === 'Sign in');
      expect(title.value).toBeUndefined();
      const attempts = find(root, (n) => n.label === 'Attempts');
      expect(attempts.value).toBe('3 attempts left');
    });

    it('treats a placeholder echoed as value as an empty field; keeps typed text', () => {
      const email = find(root, (n) => n.placeholder === 'Email');
      expect(email).toMatchObject({ role: 'textField', placeholder: 'Email' });
      expect(email.value).toBeUndefined();
      expect(email.label).toBeUndefined(); // label="" on a text field means no label
      const recovery = find(root, (n) => n.label === 'Recovery email');
      expect(recovery).toMatchObject({ value: 'ana@example.com', placeholder: 'Recovery' });
    });

    it('never exposes the value of a secure field', () => {
      const password = find(root, (n) => n.role === 'secureTextField');
      expect(password).toMatchObject({ label: 'Password', placeholder: 'Password' });
      expect(password.value).toBeUndefined();
      expect(JSON.stringify(root)).not.toContain('••');
    });

    it('reads switches as on/off and disabled buttons as disabled', () => {
      expect(find(root, (n) => n.role === 'switch').value).toBe('on');
      expect(find(root, (n) => n.label === 'Log in')).toMatchObject({ role: 'button', enabled: false, selected: false });
    });

    it('keeps an element without a label, without inventing one from its identifier', () => {
      const gear = find(root, (n) => n.role === 'button' && n.bounds.x === 340);
      expect(gear.label).toBeUndefined();
      expect(gear.enabled).toBe(true);
    });

    it('keeps hidden elements, marked invisible, and decodes entities', () => {
      const terms = find(root, (n) => n.label?.startsWith('Terms') ?? false);
      expect(terms.label).toBe('Terms & "Conditions"');
      expect(terms.visible).toBe(false);
    });

    it('has no platform words anywhere', () => {
      expect(JSON.stringify(root)).not.toMatch(/XCUIElement|processId|bundleId|traits/);
    });
  });

  describe('a settings list', () => {
    const root = normalizeXmlSource(sample('settings-list.xml'), 'iphone-a');

    it('maps tables to lists with nested cells and their children', () => {
      const list = find(root, (n) => n.role === 'list');
      expect(list.children.map((c) => c.role)).toEqual(['cell', 'cell', 'cell', 'cell']);
      const wifi = list.children[0];
      expect(wifi).toMatchObject({ label: 'Wi-Fi', value: 'HomeNet' });
      expect(wifi.children.map((c) => [c.role, c.label, c.value])).toEqual([
        ['image', undefined, undefined],
        ['text', 'Wi-Fi', undefined],
        ['text', 'HomeNet', undefined],
      ]);
    });

    it('reads selection from traits', () => {
      expect(find(root, (n) => n.role === 'cell' && n.label === 'Bluetooth').selected).toBe(true);
      expect(find(root, (n) => n.label === 'General').selected).toBe(true);
      expect(find(root, (n) => n.label === 'Privacy').selected).toBe(false);
      expect(find(root, (n) => n.role === 'switch').value).toBe('off');
    });

    it('maps search fields, sliders and tab bars', () => {
      expect(find(root, (n) => n.role === 'searchField')).toMatchObject({ label: 'Search', placeholder: 'Search' });
      expect(find(root, (n) => n.role === 'searchField').value).toBeUndefined();
      expect(find(root, (n) => n.role === 'slider').value).toBe('50%');
      expect(find(root, (n) => n.role === 'tabBar').children).toHaveLength(2);
    });

    it('gives every element a short id, unique on the screen, even for identical twins', () => {
      const ids = flatten(root).map((n) => n.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{6}$/);
      const twins = find(root, (n) => n.role === 'list').children.slice(2);
      expect(twins[0].id).not.toBe(twins[1].id);
    });

    it('gives the same ids for the same screen read twice', () => {
      const again = normalizeXmlSource(sample('settings-list.xml'), 'iphone-a');
      expect(flatten(again).map((n) => n.id)).toEqual(flatten(root).map((n) => n.id));
    });
  });

  describe('a note with a keyboard, an alert and a sheet', () => {
    const root = normalizeXmlSource(sample('alert-and-keyboard.xml'), 'iphone-a');

    it('maps text views, keyboards, keys, alerts, sheets, links, icons and unknown types', () => {
      expect(root.children.map((c) => c.role)).toEqual(['window', 'window', 'alert', 'alert']);
      const keyboard = find(root, (n) => n.role === 'keyboard');
      expect(keyboard.children.map((c) => [c.role, c.label])).toEqual([
        ['key', 'q'],
        ['key', 'w'],
        ['button', 'return'],
      ]);
      expect(find(root, (n) => n.role === 'link').label).toBe('apple.com');
      expect(find(root, (n) => n.role === 'icon').label).toBe('Mail');
      expect(find(root, (n) => n.role === 'toolbar').label).toBe('Toolbar');
      expect(find(root, (n) => n.bounds.y === 620).role).toBe('other');
    });

    it('keeps multi-line text and the focus flag of the text view', () => {
      const body = find(root, (n) => n.role === 'textField');
      expect(body).toMatchObject({ value: 'Shopping list\nmilk', placeholder: 'Start typing', focused: true });
    });

    it('keeps the alert message and its buttons', () => {
      const alert = find(root, (n) => n.label === 'Delete note?');
      expect(alert.children.map((c) => [c.role, c.label])).toEqual([
        ['text', 'This cannot be undone.'],
        ['button', 'Cancel'],
        ['button', 'Delete'],
      ]);
    });
  });

  it('accepts a source without the wrapper element', () => {
    const root = normalizeXmlSource(
      '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="A" label="A" enabled="true" visible="true" x="0" y="0" width="10" height="20" index="0" traits=""/>',
      'd',
    );
    expect(root).toMatchObject({ role: 'app', label: 'A', bounds: { x: 0, y: 0, width: 10, height: 20 }, children: [] });
  });

  it.each(['', 'not xml at all', '<AppiumAUT><unclosed></AppiumAUT>'])('rejects an unreadable source %j as device_error', (xml) => {
    let error: unknown;
    try {
      normalizeXmlSource(xml, 'iphone-a');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApexError);
    expect((error as ApexError).code).toBe('device_error');
    expect((error as ApexError).message).toMatch(/iphone-a/);
  });
});
