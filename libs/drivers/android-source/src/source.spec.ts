import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApexError } from '@apex/errors';
import { ROLES, type UiNode } from '@apex/port';
import { normalizeAndroidSource, parseBounds } from './source';

/** Hand-written UiAutomator2 sources (the format its server documents); no device produced them. */
const sample = (name: string) => readFileSync(path.join(__dirname, 'samples', name), 'utf8');
/** 420 dpi: 2.625 pixels per dp. */
const SCALE = 420 / 160;

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

function byLabel(root: UiNode, label: string): UiNode {
  const node = flatten(root).find((n) => n.label === label);
  if (!node) throw new Error(`no node labelled ${label}`);
  return node;
}

describe('UiAutomator2 source → UiNode', () => {
  it('roots the tree at the app, one window per top-level view, bounds in dp', () => {
    const root = normalizeAndroidSource(sample('settings-list.xml'), 'pixel', SCALE);
    expect(root.role).toBe('app');
    expect(root.bounds).toEqual({ x: 0, y: 0, width: 411.43, height: 914.29 });
    expect(root.children.map((c) => c.role)).toEqual(['window']);
    expect(flatten(root).find((n) => n.role === 'text' && n.label === 'Internet')?.bounds).toEqual({ x: 72, y: 123.81, width: 91.81, height: 22.1 });
  });

  it('maps classes to neutral roles: toolbar, list, cells, texts, switch, button', () => {
    const root = normalizeAndroidSource(sample('settings-list.xml'), 'pixel', SCALE);
    const nodes = flatten(root);
    expect(nodes.find((n) => n.role === 'navigationBar')).toBeDefined();
    const list = nodes.find((n) => n.role === 'list') as UiNode;
    expect(list.children.map((c) => c.role)).toEqual(['cell', 'cell', 'cell']);
    // A row is named by its title (its first text), as a screen reader reads it.
    expect(list.children.map((c) => c.label)).toEqual(list.children.map((c) => flatten(c).find((n) => n.role === 'text')?.label));
    expect(list.children.every((c) => c.label !== undefined)).toBe(true);
    expect(byLabel(root, 'Navigate up').role).toBe('button');
    expect(byLabel(root, 'Network & internet').role).toBe('text');
    const airplane = nodes.find((n) => n.role === 'switch') as UiNode;
    expect(airplane).toMatchObject({ label: 'Airplane mode', value: 'off' });
    expect(byLabel(root, 'Hotspot & tethering').enabled).toBe(false);
    for (const node of nodes) expect(ROLES).toContain(node.role);
    expect(JSON.stringify(root)).not.toMatch(/android\.|androidx|widget|resource-id|hierarchy/);
  });

  it('text inputs: a shown hint is a placeholder, not a value; passwords never expose their text', () => {
    const root = normalizeAndroidSource(sample('login-dialog.xml'), 'pixel', SCALE);
    const inputs = flatten(root).filter((n) => ['textField', 'secureTextField', 'searchField'].includes(n.role));
    expect(inputs.map(({ role, label, value, placeholder, focused }) => ({ role, label, value, placeholder, focused }))).toEqual([
      { role: 'textField', label: undefined, value: undefined, placeholder: 'Email', focused: true },
      { role: 'secureTextField', label: undefined, value: undefined, placeholder: 'Password', focused: false },
      { role: 'textField', label: 'Backup email', value: 'ada@example.com', placeholder: 'Backup email', focused: false },
      { role: 'searchField', label: undefined, value: undefined, placeholder: 'Search products', focused: false },
    ]);
    expect(JSON.stringify(root)).not.toContain('••••••');
  });

  it('checkboxes read on/off, hidden views stay with visible false, a dialog is an alert', () => {
    const root = normalizeAndroidSource(sample('login-dialog.xml'), 'pixel', SCALE);
    expect(byLabel(root, 'Remember me')).toMatchObject({ role: 'switch', value: 'on' });
    expect(byLabel(root, 'Shop logo')).toMatchObject({ role: 'image', visible: false });
    expect(byLabel(root, 'LOG IN').role).toBe('button');
    const alert = flatten(root).find((n) => n.role === 'alert') as UiNode;
    expect(flatten(alert).map((n) => n.label).filter(Boolean)).toEqual(['Wrong password', 'OK']);
    expect(root.children.map((c) => c.role)).toEqual(['window', 'window']);
  });

  it('a clickable container named only by its content description is a button (a tab of a bottom navigation bar)', () => {
    const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0" width="1080" height="2400"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.clock" content-desc="" clickable="false" enabled="true" focused="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.clock" content-desc="Stopwatch" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" selected="true" bounds="[810,2064][1080,2274]" /><node index="1" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.clock" content-desc="Decoration" clickable="false" enabled="true" focused="false" selected="false" bounds="[0,0][10,10]" /></node></hierarchy>`;
    const root = normalizeAndroidSource(xml, 'pixel', SCALE);
    expect(byLabel(root, 'Stopwatch')).toMatchObject({ role: 'button', selected: true });
    expect(byLabel(root, 'Decoration').role).toBe('other');
  });

  it('ids are unique on a screen and stable across reads', () => {
    for (const name of ['settings-list.xml', 'login-dialog.xml']) {
      const first = flatten(normalizeAndroidSource(sample(name), 'pixel', SCALE)).map((n) => n.id);
      const again = flatten(normalizeAndroidSource(sample(name), 'pixel', SCALE)).map((n) => n.id);
      expect(new Set(first).size).toBe(first.length);
      expect(again).toEqual(first);
    }
  });

  it('unreadable sources are device_error', () => {
    for (const xml of ['<hierarchy><unclosed', '<?xml version="1.0"?><other/>', '']) {
      let error: unknown;
      try {
        normalizeAndroidSource(xml, 'pixel', SCALE);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ApexError);
      expect((error as ApexError).code).toBe('device_error');
    }
  });

  it('parses pixel bounds into dp rects', () => {
    expect(parseBounds('[0,136][1080,283]', 2)).toEqual({ x: 0, y: 68, width: 540, height: 73.5 });
    expect(parseBounds('garbage', 2)).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });
});
