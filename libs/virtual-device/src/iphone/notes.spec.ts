import { createPhone } from './index';
import type { Phone } from './model';
import { byLabel, element, findElement, tapElement } from '../testing';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

const NOTES = 'com.apple.mobilenotes';

function openNotes(): Phone {
  const phone = createPhone();
  phone.launchApp(NOTES);
  return phone;
}

const noteView = (phone: Phone) => element(phone, (e) => e.type === 'TextView', 'note text view');
const keyboard = (phone: Phone) => findElement(phone, (e) => e.type === 'Keyboard');

describe('Notes', () => {
  it('shows an empty note with a placeholder and no keyboard', () => {
    const phone = openNotes();
    const note = noteView(phone);
    expect(note).toMatchObject({ value: '', label: '', placeholder: 'Start typing your note', focused: false, identifier: 'note-body' });
    expect(keyboard(phone)).toBeUndefined();
    expect(() => phone.typeText('x')).toThrow(expect.objectContaining({ kind: 'no_focused_element' }));
  });

  it('focuses on tap, shows a keyboard of keys, and shows typed text in value and pixels', () => {
    const phone = openNotes();
    const empty = phone.renderPng();
    tapElement(phone, noteView(phone));
    expect(noteView(phone).focused).toBe(true);
    const kb = keyboard(phone);
    expect(kb).toBeDefined();
    const keys = (kb?.children ?? []).filter((k) => k.type === 'Key').map((k) => k.label);
    expect(keys).toEqual(expect.arrayContaining(['q', 'w', 'a', 'z', 'shift', 'delete', 'space', 'return']));
    const focused = phone.renderPng();
    expect(focused.equals(empty)).toBe(false);
    phone.typeText('Buy milk\nCall Ada');
    expect(noteView(phone).value).toBe('Buy milk\nCall Ada');
    expect(phone.renderPng().equals(focused)).toBe(false);
  });

  it('types with the on-screen keys too', () => {
    const phone = openNotes();
    tapElement(phone, noteView(phone));
    for (const k of ['shift', 'H', 'i', 'space', 'more', '1', 'more', 'return', 'o', 'k', 'delete']) {
      tapElement(phone, element(phone, byLabel(k === 'more' ? ((noteView(phone).value ?? '').endsWith('1') ? 'letters' : 'more') : k, 'Key'), `key ${k}`));
    }
    expect(noteView(phone).value).toBe('Hi 1\no');
  });

  it('ends editing with Done: the keyboard goes away and the text stays', () => {
    const phone = openNotes();
    tapElement(phone, noteView(phone));
    phone.typeText('Hello');
    tapElement(phone, element(phone, byLabel('Done', 'Button')));
    expect(keyboard(phone)).toBeUndefined();
    expect(noteView(phone)).toMatchObject({ value: 'Hello', focused: false });
    expect(findElement(phone, byLabel('Done', 'Button'))).toBeUndefined();
  });

  it('focuses and clears through element ids', () => {
    const phone = openNotes();
    phone.focusElement(noteView(phone).uid);
    phone.typeText('scratch');
    phone.clearElement(noteView(phone).uid);
    expect(noteView(phone).value).toBe('');
    expect(() => phone.focusElement('no/such/uid')).toThrow(expect.objectContaining({ kind: 'element_gone' }));
    const title = element(phone, (e) => e.type === 'NavigationBar');
    expect(() => phone.clearElement(title.uid)).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
  });

  it('keeps the note when backgrounded and after termination', () => {
    const phone = openNotes();
    tapElement(phone, noteView(phone));
    phone.typeText('Remember me');
    phone.goHome();
    phone.launchApp(NOTES);
    expect(noteView(phone)).toMatchObject({ value: 'Remember me', focused: true });
    phone.terminateApp(NOTES);
    phone.launchApp(NOTES);
    expect(noteView(phone)).toMatchObject({ value: 'Remember me', focused: false });
    expect(keyboard(phone)).toBeUndefined();
  });
});
