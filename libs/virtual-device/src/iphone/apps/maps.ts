import type { AppDefinition, AppInstance, Env, PhoneServices, SystemState } from './app';
import { locationText } from './installed-app';
import { drawGlyph } from '../../engine/render/glyphs';
import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import { keyboardWindow } from '../../engine/ui/keyboard';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import type { View } from '../../engine/view';

export const MAPS_BUNDLE_ID = 'com.apple.Maps';
export const MAPS_ALERT_TITLE = 'Allow \u201cMaps\u201d to use your location?';
export const MAPS_ALERT_MESSAGE = 'Your location is used to show your position on the map and to give directions.';
export const MAPS_ALERT_BUTTONS = ['Allow Once', 'Allow While Using App', "Don't Allow"] as const;

const SHEET_HEIGHT = 96;
/** Zoom levels as web maps count them: each level doubles the scale. */
export const MAPS_START_ZOOM = 14;
const MIN_ZOOM = 11;
const MAX_ZOOM = 20;

/** The Map element's value: what an agent reads to know how far in it is. */
export function mapsZoomValue(level: number): string {
  return `Zoom level ${Number(level.toFixed(1))}`;
}

/**
 * A map that asks for location permission the first time it opens (and never again once answered: the answer
 * is the phone's, per app, so set_permission and reset_app change it). With the permission and a simulated
 * position, the sheet shows the position.
 */
class MapsApp implements AppInstance {
  constructor(private readonly system: SystemState) {}

  private get permission(): 'granted' | 'denied' | 'undetermined' {
    return this.system.privacy.get(MAPS_BUNDLE_ID)?.get('location') ?? 'undetermined';
  }

  private answer(granted: boolean): void {
    let answers = this.system.privacy.get(MAPS_BUNDLE_ID);
    if (!answers) this.system.privacy.set(MAPS_BUNDLE_ID, (answers = new Map()));
    answers.set('location', granted ? 'granted' : 'denied');
  }
  private pan = { x: 0, y: 0 };
  private zoom = MAPS_START_ZOOM;
  private readonly search = new TextInput(false, () => this.search.blur());

  focusedInput(): TextInput | null {
    return this.search.focused ? this.search : null;
  }

  activated(services: PhoneServices): void {
    if (this.permission !== 'undetermined') return;
    services.showAlert(MAPS_BUNDLE_ID, {
      title: MAPS_ALERT_TITLE,
      message: MAPS_ALERT_MESSAGE,
      buttons: [...MAPS_ALERT_BUTTONS],
      acceptButton: 'Allow While Using App',
      dismissButton: "Don't Allow",
      onChoice: (button) => this.answer(button !== "Don't Allow"),
    });
  }

  /** Where the phone is, under the search field. */
  private position(env: Env, sheetTop: number): View {
    const label = `Current Location: ${locationText(this.system, MAPS_BUNDLE_ID)}`;
    const y = sheetTop + 74;
    return {
      uid: 'maps/position',
      type: 'StaticText',
      identifier: 'CurrentPosition',
      label,
      value: label,
      rect: { x: 16, y: y - 10, width: env.width - 32, height: 20 },
      draw: ({ ctx, theme }) => drawText(ctx, label, 20, y, { size: 13, color: theme.secondaryLabel }),
    };
  }

  /** `maps://?q=Cupertino` puts the query in the search field. */
  openUrl(url: string): void {
    const q = new URLSearchParams(url.split('?')[1] ?? '').get('q');
    if (q) this.search.text = q;
  }

  reset(): void {
    this.pan = { x: 0, y: 0 };
    this.zoom = MAPS_START_ZOOM;
    this.search.blur();
  }

  windows(env: Env): View[] {
    const { theme } = env;
    const dark = theme.appearance === 'dark';
    const sheetTop = env.height - SHEET_HEIGHT - env.bottom;
    const mapRect = { x: 0, y: 0, width: env.width, height: sheetTop };
    const located = this.permission === 'granted';
    const pan = this.pan;
    const map: View = {
      uid: 'maps/map',
      type: 'Other',
      identifier: 'Map',
      label: 'Map',
      value: mapsZoomValue(this.zoom),
      rect: mapRect,
      onDrag: (dx, dy) => {
        pan.x += dx;
        pan.y += dy;
      },
      // Zooms around the fingers: the place under them stays put.
      onPinch: (scale, x, y) => {
        const level = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.zoom + Math.log2(scale)));
        const factor = 2 ** (level - this.zoom);
        const cx = env.width / 2;
        const cy = sheetTop / 2;
        pan.x = x - cx - (x - cx - pan.x) * factor;
        pan.y = y - cy - (y - cy - pan.y) * factor;
        this.zoom = level;
      },
      draw: ({ ctx }) => {
        ctx.save();
        ctx.beginPath();
        ctx.rect(mapRect.x, mapRect.y, mapRect.width, mapRect.height);
        ctx.clip();
        drawMap(ctx, env, { x: env.width / 2, y: sheetTop / 2 }, pan, 2 ** (this.zoom - MAPS_START_ZOOM), dark);
        if (located) {
          const cx = env.width / 2 + pan.x;
          const cy = sheetTop / 2 + pan.y;
          ctx.fillStyle = 'rgba(0,122,255,0.2)';
          ctx.beginPath();
          ctx.arc(cx, cy, 30, 0, Math.PI * 2);
          ctx.fill();
          ctx.fillStyle = '#ffffff';
          ctx.beginPath();
          ctx.arc(cx, cy, 11, 0, Math.PI * 2);
          ctx.fill();
          ctx.fillStyle = '#007aff';
          ctx.beginPath();
          ctx.arc(cx, cy, 8, 0, Math.PI * 2);
          ctx.fill();
        }
        ctx.restore();
      },
    };
    const locate: View = {
      uid: 'maps/locate',
      type: 'Button',
      label: 'Current Location',
      identifier: 'CurrentLocationButton',
      rect: { x: env.width - 60, y: env.top + 12, width: 44, height: 44 },
      onTap: () => {
        pan.x = 0;
        pan.y = 0;
      },
      draw: ({ ctx }) => {
        fillRoundRect(ctx, { x: env.width - 60, y: env.top + 12, width: 44, height: 44 }, 8, theme.cell);
        drawGlyph(ctx, 'location', env.width - 38, env.top + 34, 20, theme.tint);
      },
    };
    const search = this.search;
    const fieldRect = { x: 16, y: sheetTop + 16, width: env.width - 32, height: 40 };
    const sheet: View = {
      uid: 'maps/sheet',
      type: 'Other',
      rect: { x: 0, y: sheetTop, width: env.width, height: env.height - sheetTop },
      opaque: true,
      draw: ({ ctx }) => fillRoundRect(ctx, { x: 0, y: sheetTop, width: env.width, height: env.height - sheetTop + 20 }, 12, theme.cell),
      children: [
        ...(located && this.system.location ? [this.position(env, sheetTop)] : []),
        {
          uid: 'maps/search',
          type: 'SearchField',
          label: 'Search Maps',
          value: search.text,
          placeholder: 'Search Maps',
          focused: search.focused,
          rect: fieldRect,
          onTap: () => search.focus(),
          onClear: () => search.clear(),
          textInput: search,
          draw: (p) => {
            fillRoundRect(p.ctx, fieldRect, 10, theme.fieldBackground);
            drawGlyph(p.ctx, 'magnifier', fieldRect.x + 20, fieldRect.y + 20, 16, theme.secondaryLabel, 2);
            drawSingleLineText(p, { x: fieldRect.x + 36, y: fieldRect.y + 9, width: fieldRect.width - 48, height: 22 }, search.text, 'Search Maps', search.focused);
          },
        },
      ],
    };
    const windows: View[] = [{ uid: 'maps/window', type: 'Window', rect: env.screen, children: [map, locate, sheet] }];
    if (search.focused) windows.push(keyboardWindow(env, search, 'search'));
    return windows;
  }
}

/** Streets, a park, a river and a few place names, offset by the pan and scaled around `centre` (pixels only). */
function drawMap(
  ctx: import('@napi-rs/canvas').SKRSContext2D,
  env: Env,
  centre: { x: number; y: number },
  pan: { x: number; y: number },
  scale: number,
  dark: boolean,
): void {
  fillRect(ctx, env.screen, dark ? '#2b2b2e' : '#f3efe6');
  ctx.save();
  ctx.translate(centre.x + pan.x, centre.y + pan.y);
  ctx.scale(scale, scale);
  ctx.translate(-centre.x, -centre.y);
  const span = (3 * Math.max(env.width, env.height)) / Math.min(1, scale);
  ctx.fillStyle = dark ? '#2f4a33' : '#c8e6b0';
  ctx.fillRect(40, 180, 150, 120);
  ctx.fillStyle = dark ? '#1d3a57' : '#a9d3f5';
  ctx.beginPath();
  ctx.moveTo(-span, 520);
  ctx.bezierCurveTo(100, 470, 260, 600, span, 540);
  ctx.lineTo(span, 580);
  ctx.bezierCurveTo(260, 640, 100, 510, -span, 560);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = dark ? '#55555a' : '#ffffff';
  ctx.lineWidth = 8;
  for (let x = -span; x < span; x += 110) {
    ctx.beginPath();
    ctx.moveTo(x, -span);
    ctx.lineTo(x + 40, span);
    ctx.stroke();
  }
  for (let y = -span; y < span; y += 130) {
    ctx.beginPath();
    ctx.moveTo(-span, y);
    ctx.lineTo(span, y + 30);
    ctx.stroke();
  }
  const labels: [string, number, number][] = [
    ['Apex Park', 70, 240],
    ['Market Street', 210, 410],
    ['Harbor', 230, 610],
  ];
  for (const [name, x, y] of labels) drawText(ctx, name, x, y, { size: 13, color: dark ? '#d0d0d0' : '#5a5a5a', weight: 'bold' });
  ctx.restore();
}

export const mapsApp: AppDefinition = {
  bundleId: MAPS_BUNDLE_ID,
  name: 'Maps',
  icon: { background: '#34c759', foreground: '#ffffff', glyph: 'location' },
  urlSchemes: ['maps'],
  create: (system) => new MapsApp(system),
};
