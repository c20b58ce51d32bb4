import { createPhone } from './index';
import type { Phone, PhoneElement, Rect } from './model';
import { allElements, byLabel, decode, element, tapElement, type Pixels } from '../testing';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

/** The bounding box (in points) of pixels in `area` that differ clearly from `background`. */
function inkBox(pixels: Pixels, area: Rect, background: number[]): Rect | null {
  const s = pixels.scale;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let py = Math.floor(area.y * s); py < Math.ceil((area.y + area.height) * s); py++) {
    for (let px = Math.floor(area.x * s); px < Math.ceil((area.x + area.width) * s); px++) {
      const c = pixels.at(px / s, py / s);
      if (Math.max(...[0, 1, 2].map((i) => Math.abs(c[i] - background[i]))) > 60) {
        minX = Math.min(minX, px);
        minY = Math.min(minY, py);
        maxX = Math.max(maxX, px);
        maxY = Math.max(maxY, py);
      }
    }
  }
  if (minX === Infinity) return null;
  return { x: minX / s, y: minY / s, width: (maxX + 1 - minX) / s, height: (maxY + 1 - minY) / s };
}

async function expectTextDrawnInRects(phone: Phone, texts: PhoneElement[]): Promise<void> {
  const pixels = await decode(phone.renderPng(), phone.profile.scale);
  expect(texts.length).toBeGreaterThan(5);
  for (const t of texts) {
    const margin = 6;
    const area = { x: t.rect.x - margin, y: t.rect.y - margin, width: t.rect.width + 2 * margin, height: t.rect.height + 2 * margin };
    const background = pixels.at(area.x, area.y).slice(0, 3);
    const ink = inkBox(pixels, area, background);
    expect({ label: t.label, ink: ink !== null }).toEqual({ label: t.label, ink: true });
    if (!ink) continue;
    const slack = 1.5;
    const inside =
      ink.x >= t.rect.x - slack &&
      ink.y >= t.rect.y - slack &&
      ink.x + ink.width <= t.rect.x + t.rect.width + slack &&
      ink.y + ink.height <= t.rect.y + t.rect.height + slack;
    expect({ label: t.label, inside }).toEqual({ label: t.label, inside: true });
    // The rect is not much wider than the text it describes (glyph side bearings aside).
    expect(t.rect.width - ink.width).toBeLessThan(Math.max(3, t.rect.width * 0.2));
  }
}

const visibleCellTexts = (phone: Phone): PhoneElement[] =>
  allElements(phone.snapshot())
    .filter((e) => e.type === 'Cell' && e.visible)
    .flatMap((c) => c.children.filter((e) => e.type === 'StaticText'))
    // Rows partly under the bars are cut off in pixels.
    .filter((e) => e.rect.y > 150 && e.rect.y + e.rect.height < 800);

describe('element rects match the pixels', () => {
  it('Settings row titles are drawn inside their rects, before and after scrolling', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Preferences');
    await expectTextDrawnInRects(phone, visibleCellTexts(phone));
    phone.drag(200, 700, 200, 313, 0.3);
    await expectTextDrawnInRects(phone, visibleCellTexts(phone));
  });

  it('About values and titles are drawn inside their rects (dark too)', async () => {
    const phone = createPhone({ appearance: 'dark', deviceName: 'Rect Checker' });
    phone.launchApp('com.apple.Preferences');
    tapElement(phone, element(phone, byLabel('General', 'Cell')));
    tapElement(phone, element(phone, byLabel('About', 'Cell')));
    await expectTextDrawnInRects(phone, visibleCellTexts(phone));
  });

  it('on the SE profile (scale 2)', async () => {
    const phone = createPhone({ profile: 'iphone-se' });
    phone.launchApp('com.apple.Preferences');
    const texts = allElements(phone.snapshot())
      .filter((e) => e.type === 'Cell' && e.visible)
      .flatMap((c) => c.children.filter((e) => e.type === 'StaticText'))
      .filter((e) => e.rect.y > 80 && e.rect.y + e.rect.height < 660);
    await expectTextDrawnInRects(phone, texts);
  });
});

describe('icon buttons and alerts are drawn where their rects say', () => {
  it('each unlabeled Photos button has its glyph centred in its rect', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobileslideshow');
    const pixels = await decode(phone.renderPng(), 3);
    const buttons = allElements(phone.snapshot()).filter((e) => e.type === 'Button' && !e.label);
    expect(buttons.length).toBeGreaterThanOrEqual(5);
    for (const b of buttons) {
      const background = pixels.at(b.rect.x + 1, b.rect.y + 1).slice(0, 3);
      const ink = inkBox(pixels, b.rect, background);
      expect({ uid: b.uid, ink: ink !== null }).toEqual({ uid: b.uid, ink: true });
      if (!ink) continue;
      const dx = ink.x + ink.width / 2 - (b.rect.x + b.rect.width / 2);
      const dy = ink.y + ink.height / 2 - (b.rect.y + b.rect.height / 2);
      expect({ uid: b.uid, centred: Math.abs(dx) <= 2 && Math.abs(dy) <= 2 }).toEqual({ uid: b.uid, centred: true });
      // SF-Symbol-like size: about 20–28 points.
      expect(Math.max(ink.width, ink.height)).toBeGreaterThanOrEqual(18);
      expect(Math.max(ink.width, ink.height)).toBeLessThanOrEqual(30);
    }
  });

  it('alert title and buttons are drawn inside their rects', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Maps');
    const alert = element(phone, (e) => e.type === 'Alert');
    const pixels = await decode(phone.renderPng(), 3);
    for (const child of alert.children) {
      const background = pixels.at(child.rect.x + 1, child.rect.y + 2).slice(0, 3);
      const inner = { x: child.rect.x + 1, y: child.rect.y + 2, width: child.rect.width - 2, height: child.rect.height - 3 };
      expect({ label: child.label, ink: inkBox(pixels, inner, background) !== null }).toEqual({ label: child.label, ink: true });
    }
    // Outside the alert box, nothing of it is drawn: the dimmed map is there.
    const below = { x: alert.rect.x, y: alert.rect.y + alert.rect.height + 4, width: alert.rect.width, height: 2 };
    const dim = pixels.at(below.x + 1, below.y + 1);
    expect(dim[0] + dim[1] + dim[2]).toBeLessThan(3 * 235);
  });
});
