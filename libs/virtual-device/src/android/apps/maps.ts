import { fillRect, fillRoundRect } from '../../engine/render/paint';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import type { AndroidView } from '../android-view';
import { appWindow, contentRect, textView } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv, AppServices } from './app';

export const MAPS_PACKAGE = 'com.google.android.apps.maps';
const MAPS_ACTIVITY = 'com.google.android.maps.MapsActivity';
export const LOCATION_PERMISSION = 'android.permission.ACCESS_FINE_LOCATION';

/** Google Maps: asks for the location permission when it comes to the front without it. */
class MapsInstance implements AndroidAppInstance {
  /** null until the permission dialog was answered (or the grant was known). */
  private located: boolean | null = null;
  private readonly search = new TextInput(false, () => this.search.blur());

  resumed(services: AppServices): void {
    services.requestPermission(MAPS_PACKAGE, LOCATION_PERMISSION, (granted) => (this.located = granted));
  }

  window(env: AndroidEnv): AndroidView {
    const { theme } = env;
    const content = contentRect(env);
    const dark = theme.appearance === 'dark';
    const map: AndroidView = {
      uid: 'maps/map',
      type: 'Other',
      className: 'android.view.View',
      contentDesc: 'Google Map',
      rect: content,
      draw: ({ ctx }) => {
        fillRect(ctx, content, dark ? '#242f3e' : '#e8eaed');
        ctx.strokeStyle = dark ? '#38414e' : '#ffffff';
        ctx.lineWidth = 10;
        for (let i = 0; i < 6; i++) {
          ctx.beginPath();
          ctx.moveTo(0, content.y + 120 + i * 130);
          ctx.lineTo(env.width, content.y + 60 + i * 150);
          ctx.stroke();
        }
        fillRect(ctx, { x: env.width * 0.55, y: content.y, width: 14, height: content.height }, dark ? '#746855' : '#fdd663');
        if (this.located) {
          const cx = env.width / 2;
          const cy = content.y + content.height / 2;
          ctx.fillStyle = 'rgba(66,133,244,0.25)';
          ctx.beginPath();
          ctx.arc(cx, cy, 36, 0, Math.PI * 2);
          ctx.fill();
          ctx.fillStyle = '#4285f4';
          ctx.beginPath();
          ctx.arc(cx, cy, 10, 0, Math.PI * 2);
          ctx.fill();
        }
      },
    };
    const field = { x: 16, y: content.y + 12, width: env.width - 32, height: 48 };
    const search: AndroidView = {
      uid: 'maps/search',
      type: 'TextField',
      resourceId: `${MAPS_PACKAGE}:id/search_omnibox_text_box`,
      text: this.search.text === '' ? 'Search here' : this.search.text,
      label: this.search.text,
      placeholder: 'Search here',
      focused: this.search.focused,
      focusable: true,
      rect: field,
      textInput: this.search,
      onTap: () => this.search.focus(),
      onClear: () => this.search.clear(),
      draw: (p) => {
        fillRoundRect(p.ctx, field, 24, theme.cell);
        drawSingleLineText(p, { x: field.x + 20, y: field.y + 13, width: field.width - 40, height: 22 }, this.search.text, 'Search here', this.search.focused);
      },
    };
    const children: AndroidView[] = [map, search];
    if (this.located === false) {
      const r = { x: 16, y: content.y + content.height - 88, width: env.width - 32, height: 64 };
      children.push({
        uid: 'maps/no_location',
        type: 'Other',
        rect: r,
        draw: ({ ctx }) => fillRoundRect(ctx, r, 16, theme.cell),
        children: [textView(env, 'maps/no_location/text', 'Location permission is off', { x: r.x + 20, y: r.y + 16, width: r.width - 40, height: 32 }, { size: 16 })],
      });
    } else if (this.located) {
      children.push(textView(env, 'maps/here', 'You are here', { x: 0, y: content.y + content.height / 2 + 40, width: env.width, height: 24 }, { size: 14, align: 'center', color: dark ? '#e3e2e9' : '#1a1b20' }));
    }
    return appWindow(env, MAPS_PACKAGE, children);
  }

  focusedInput(): TextInput | null {
    return this.search.focused ? this.search : null;
  }

  back(): boolean {
    if (this.search.focused) {
      this.search.blur();
      return true;
    }
    return false;
  }

  activity(): string {
    return MAPS_ACTIVITY;
  }

  reset(): void {
    this.search.blur();
    this.located = null;
  }
}

export const mapsApp: AndroidAppDefinition = {
  pkg: MAPS_PACKAGE,
  label: 'Maps',
  launcherActivity: MAPS_ACTIVITY,
  icon: { background: '#ffffff', foreground: '#34a853', letter: 'M' },
  versionName: '11.110.0101',
  create: () => new MapsInstance(),
};
