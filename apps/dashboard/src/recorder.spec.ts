import { flowYaml, selectorAt, stepOf } from './recorder';
import type { UiNode } from './types';

const node = (id: string, role: string, x: number, y: number, w: number, h: number, label?: string, children: UiNode[] = [], value?: string): UiNode => ({
  id,
  role,
  label,
  value,
  bounds: { x, y, width: w, height: h },
  children,
});

// A Settings-like screen: two cells labelled with their own text inside, two unlabeled switches, a repeated "Edit".
const root = node('root', 'application', 0, 0, 393, 852, 'Settings', [
  node('w', 'window', 0, 0, 393, 852, undefined, [
    node('general', 'cell', 0, 100, 393, 44, 'General', [node('general-text', 'staticText', 16, 110, 80, 20, 'General')]),
    node('about', 'cell', 0, 144, 393, 44, 'About'),
    node('edit1', 'button', 300, 200, 60, 30, 'Edit'),
    node('edit2', 'staticText', 300, 300, 60, 30, 'Edit'),
    node('s1', 'switch', 320, 400, 50, 30, undefined, [], '1'),
    node('s2', 'switch', 320, 500, 50, 30, undefined, [], '1'),
  ]),
]);

describe('selectorAt', () => {
  it('names an element by the text a person reads, the cell and its own label being one thing', () => {
    expect(selectorAt(root, { x: 200, y: 120 })).toEqual({ text: 'General' });
    expect(selectorAt(root, { x: 30, y: 115 })).toEqual({ text: 'General' });
  });
  it('adds the role when the text is shown twice', () => {
    expect(selectorAt(root, { x: 310, y: 210 })).toEqual({ label: 'Edit', role: 'button' });
  });
  it('takes role + index in reading order when neither text nor label tells elements apart', () => {
    expect(selectorAt(root, { x: 330, y: 510 })).toEqual({ role: 'switch', index: 1 });
  });
  it('keeps the point (rounded) where only a container is, or no tree was read', () => {
    expect(selectorAt(root, { x: 100.04, y: 700.06 })).toEqual({ point: { x: 100, y: 700.1 } });
    expect(selectorAt(undefined, { x: 1, y: 2 })).toEqual({ point: { x: 1, y: 2 } });
  });
});

describe('stepOf', () => {
  it('turns each operation the page sends into the flow step of the same meaning', () => {
    expect(stepOf('/tap', { x: 200, y: 160 }, root)).toEqual({ tap: 'About' });
    expect(stepOf('/long-press', { x: 200, y: 160, durationMs: 800 }, root)).toEqual({ long_press: { selector: 'About', durationMs: 800 } });
    expect(stepOf('/swipe', { from: { x: 100, y: 600 }, to: { x: 100, y: 200 } }, root)).toEqual({ swipe: 'up' });
    expect(stepOf('/swipe', { from: { x: 300, y: 400 }, to: { x: 20, y: 410 } }, root)).toEqual({ swipe: 'left' });
    expect(stepOf('/input', { text: 'hi', submit: false }, root)).toEqual({ type: 'hi' });
    expect(stepOf('/input', { text: 'hi', submit: true }, root)).toEqual({ type: { text: 'hi', submit: true } });
    expect(stepOf('/press-button', { button: 'home' }, root)).toEqual({ press: 'home' });
    expect(stepOf('/launch', { name: 'Settings' }, root)).toEqual({ launch: 'Settings' });
    expect(stepOf('/launch', { appId: 'com.apple.Maps' }, root)).toEqual({ launch: 'com.apple.Maps' });
    expect(stepOf('/open-url', { url: 'https://example.com' }, root)).toEqual({ open_url: 'https://example.com' });
    expect(stepOf('/alert', { action: 'accept' }, root)).toEqual({ handle_alert: 'accept' });
    expect(stepOf('/orientation', { orientation: 'landscape' }, root)).toEqual({ set_orientation: 'landscape' });
    expect(stepOf('/hide-keyboard', {}, root)).toEqual({ hide_keyboard: true });
  });
  it('has no step for what flows cannot say (lock, appearance)', () => {
    expect(stepOf('/lock', { locked: true }, root)).toBeUndefined();
    expect(stepOf('/appearance', { appearance: 'dark' }, root)).toBeUndefined();
  });
});

describe('flowYaml', () => {
  it('writes plain words plainly, anything else quoted, objects in flow style', () => {
    expect(
      flowYaml('Recorded flow', [{ tap: 'General' }, { tap: { role: 'switch', index: 1 } }, { type: 'yes' }, { type: { text: 'a: b #c', submit: true } }, { open_url: 'https://example.com' }]),
    ).toBe(
      [
        '# Recorded in the Apex dashboard.',
        'name: Recorded flow',
        'steps:',
        '  - tap: General',
        '  - tap: { role: switch, index: 1 }',
        '  - type: "yes"',
        '  - type: { text: "a: b #c", submit: true }',
        '  - open_url: "https://example.com"',
        '',
      ].join('\n'),
    );
  });
  it('writes an empty recording as an empty list', () => {
    expect(flowYaml('x', [])).toContain('steps: []');
  });
});
