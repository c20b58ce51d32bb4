import { lineOf } from '../ocr/ocr-service';
import type { OcrWord } from '../ocr/ocr-types';
import { SCREEN, settingsTree, uiNode } from '../testing/ui-nodes';
import { describeScreen } from './describe-screen';

const GEOMETRY = { width: 393, height: 852, scale: 3 };

function ocrLine(text: string, x: number, y: number, confidence = 0.95) {
  const words: OcrWord[] = text.split(' ').map((t, i) => ({ text: t, confidence, bounds: { x: x + i * 50, y, width: 45, height: 16 } }));
  return lineOf(words);
}

describe('describeScreen', () => {
  it('lists interactive elements with short refs, values and centres, and tree text outside them', () => {
    const d = describeScreen({ tree: settingsTree(), screen: GEOMETRY, app: { appId: 'com.apple.Preferences', name: 'Settings' } });
    // The Airplane Mode row is its switch: only the switch is listed.
    expect(d.elements.map((e) => [e.ref, e.role, e.label, e.value])).toEqual([
      ['e1', 'switch', 'Airplane Mode', '0'],
      ['e2', 'cell', 'Wi-Fi', undefined],
      ['e3', 'cell', 'Bluetooth', undefined],
    ]);
    expect(d.refs.e2).toEqual({ nodeId: 'row-Wi-Fi', center: { x: 196.5, y: 186 } });
    expect(d.staticText).toEqual([{ text: 'Settings', center: { x: 195, y: 76 } }]);
    expect(d.omittedElements).toBe(0);
    expect(d.orientation).toBe('portrait');
    expect(d.text.split('\n')).toEqual([
      'Settings (com.apple.Preferences) · 393×852 pt',
      'e1 switch "Airplane Mode" = off @346,142',
      'e2 cell "Wi-Fi" @197,186',
      'e3 cell "Bluetooth" @197,230',
    ]);
  });

  it('says a title and the orientation only when the first line does not already', () => {
    const d = describeScreen({ tree: settingsTree(), screen: GEOMETRY, orientation: 'landscape', app: { appId: 'com.example.prefs', name: 'Prefs' } });
    expect(d.text.split('\n')[0]).toBe('Prefs (com.example.prefs) · 393×852 pt · landscape');
    expect(d.text).toContain('Text:\n"Settings" @195,76');
  });

  it('keeps a row whose switch says something else', () => {
    const row = { x: 0, y: 120, width: 393, height: 44 };
    const tree = uiNode('app', SCREEN, { id: 'app' }, [
      uiNode('cell', row, { id: 'row', label: 'Wi-Fi' }, [uiNode('switch', { x: 320, y: 127, width: 51, height: 31 }, { id: 'sw', label: 'Ask to Join', value: '1' })]),
    ]);
    const d = describeScreen({ tree, screen: GEOMETRY });
    expect(d.elements.map((e) => [e.role, e.label])).toEqual([
      ['cell', 'Wi-Fi'],
      ['switch', 'Ask to Join'],
    ]);
  });

  it('bounds the list and counts what it left out', () => {
    const d = describeScreen({ tree: settingsTree(), screen: GEOMETRY, maxElements: 2 });
    expect(d.elements).toHaveLength(2);
    expect(d.omittedElements).toBe(1);
    expect(d.text).toContain('(+1 more elements not listed; raise maxElements)');
  });

  it('adds OCR text the tree lacks, leaving out what the tree has, unsure lines and glyphs read as letters', () => {
    const tree = uiNode('app', SCREEN, { id: 'app', label: 'Browser' }, [
      uiNode('text', { x: 20, y: 100, width: 100, height: 20 }, { label: 'Wi-Fi' }),
      uiNode('button', { x: 300, y: 790, width: 44, height: 44 }, { id: 'glyph' }),
      uiNode('toolbar', { x: 0, y: 780, width: 393, height: 60 }, { id: 'toolbar' }),
    ]);
    const ocr = {
      lines: [
        ocrLine('Wi-Fi', 22, 102),
        ocrLine('Welcome to Apex', 20, 300),
        ocrLine('blurry words', 20, 400, 0.5),
        ocrLine('th', 310, 800, 0.8),
        ocrLine('cut off line', 20, 772),
      ],
    };
    const d = describeScreen({ tree, screen: GEOMETRY, ocr, iconNames: new Map([['glyph', 'share']]) });
    expect(d.ocrText.map((t) => t.text)).toEqual(['Welcome to Apex']);
    expect(d.elements[0]).toMatchObject({ role: 'button', icon: 'share' });
    expect(d.text).toContain('e1 button (icon: share) @322,812');
    expect(d.text).toContain('OCR (no refs):\n"Welcome to Apex" @93,308');
  });

  it('reports an alert (its buttons first) and a keyboard without listing its keys', () => {
    const tree = uiNode('app', SCREEN, { id: 'app', label: 'Maps' }, [
      uiNode('button', { x: 10, y: 60, width: 44, height: 44 }, { label: 'Search' }),
      uiNode('alert', { x: 60, y: 300, width: 270, height: 200 }, { label: 'Allow “Maps” to use your location?' }, [
        uiNode('text', { x: 70, y: 340, width: 250, height: 40 }, { label: 'Your location is used to show where you are.' }),
        uiNode('button', { x: 60, y: 420, width: 270, height: 40 }, { label: 'Allow Once' }),
        uiNode('button', { x: 60, y: 460, width: 270, height: 40 }, { label: "Don't Allow" }),
      ]),
      uiNode('keyboard', { x: 0, y: 560, width: 393, height: 290 }, {}, [
        uiNode('key', { x: 0, y: 570, width: 39, height: 42 }, { label: 'q' }),
        uiNode('key', { x: 40, y: 570, width: 39, height: 42 }, { label: 'w' }),
      ]),
    ]);
    const d = describeScreen({ tree, screen: GEOMETRY });
    expect(d.alert).toEqual({
      title: 'Allow “Maps” to use your location?',
      message: 'Your location is used to show where you are.',
      buttons: ['Allow Once', "Don't Allow"],
    });
    expect(d.keyboardVisible).toBe(true);
    expect(d.elements.map((e) => e.label)).toEqual(['Allow Once', "Don't Allow", 'Search']);
    // The alert's own text is in the ALERT line, not repeated as screen text.
    expect(d.staticText).toEqual([]);
    expect(d.text).toContain('ALERT "Allow “Maps” to use your location?" — "Your location is used to show where you are." buttons: "Allow Once", "Don\'t Allow"');
    expect(d.text.split('\n')[0]).toContain('keyboard up');
  });
});
