import { fillRect } from '../../engine/render/paint';
import { glyphButton } from '../../engine/ui/glyph-button';
import type { AndroidView } from '../android-view';
import { appWindow, contentRect, textView } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const PHOTOS_PACKAGE = 'com.google.android.apps.photos';
const HOME_ACTIVITY = 'com.google.android.apps.photos.home.HomeActivity';
const VIEWER_ACTIVITY = 'com.google.android.apps.photos.pager.HostPhotoPagerActivity';

const COLORS = ['#f4b400', '#0f9d58', '#4285f4', '#db4437', '#ab47bc', '#00acc1', '#ff7043', '#9e9d24', '#5c6bc0'];

/**
 * Google Photos with icon-only buttons that carry NO content description (as many real apps ship them): only
 * their pixels say what they are (search, share, delete, back in the viewer).
 */
class PhotosInstance implements AndroidAppInstance {
  private photos = COLORS.map((color, i) => ({ id: i + 1, color }));
  private viewing: string | null = null;

  /** What the grid shows, newest first: the media store's photos and videos (pushed and scanned), then the camera roll. */
  private items(env: AndroidEnv): Array<{ key: string; desc: string; color: string; id?: number }> {
    const scanned = env.services.media().map((m) => ({ key: `media:${m.path}`, desc: `${m.kind === 'video' ? 'Video' : 'Photo'} ${m.path.split('/').pop() ?? m.path}`, color: '#8d9199' }));
    return [...scanned, ...this.photos.map((p) => ({ key: `photo:${p.id}`, desc: `Photo ${p.id}`, color: p.color, id: p.id }))];
  }

  window(env: AndroidEnv): AndroidView {
    const { theme } = env;
    const content = contentRect(env);
    const barY = content.y + 32;
    if (this.viewing !== null) {
      const photo = this.items(env).find((p) => p.key === this.viewing);
      if (!photo) this.viewing = null;
      else {
        const img = { x: 0, y: content.y + 80, width: env.width, height: content.height - 160 };
        return appWindow(
          env,
          PHOTOS_PACKAGE,
          ([
            { uid: `photos/viewer/${photo.key}`, type: 'Image', contentDesc: photo.desc, rect: img, draw: ({ ctx }) => fillRect(ctx, img, photo.color) },
            glyphButton('photos/viewer/back', 'back', 28, barY, '#ffffff', () => this.back()),
            glyphButton('photos/viewer/share', 'share', env.width / 2 - 60, content.y + content.height - 40, '#ffffff', () => undefined),
            glyphButton('photos/viewer/heart', 'heart', env.width / 2, content.y + content.height - 40, '#ffffff', () => undefined),
            glyphButton('photos/viewer/trash', 'trash', env.width / 2 + 60, content.y + content.height - 40, '#ffffff', () => {
              if (photo.id !== undefined) this.photos = this.photos.filter((p) => p.id !== photo.id);
              this.viewing = null;
            }),
          ] as AndroidView[]).map((v) => ({ ...v, className: v.type === 'Button' ? 'android.widget.ImageButton' : 'android.widget.ImageView' })),
          '#000000',
        );
      }
    }
    const size = (env.width - 4 * 2) / 3;
    const gridTop = content.y + 72;
    const children: AndroidView[] = [
      textView(env, 'photos/title', 'Photos', { x: 20, y: barY - 16, width: 120, height: 32 }, { size: 22 }),
      { ...glyphButton('photos/search', 'magnifier', env.width - 80, barY, theme.label, () => undefined), className: 'android.widget.ImageButton' },
      { ...glyphButton('photos/add', 'plus', env.width - 32, barY, theme.label, () => undefined), className: 'android.widget.ImageButton' },
    ];
    this.items(env).forEach((p, i) => {
      const r = { x: (i % 3) * (size + 2), y: gridTop + Math.floor(i / 3) * (size + 2), width: size, height: size };
      const uid = p.id !== undefined ? `photos/thumb/${p.id}` : `photos/thumb/${p.key}`;
      children.push({ uid, type: 'Image', className: 'android.view.View', contentDesc: p.desc, rect: r, onTap: () => (this.viewing = p.key), draw: ({ ctx }) => fillRect(ctx, r, p.color) });
    });
    return appWindow(env, PHOTOS_PACKAGE, children);
  }

  focusedInput() {
    return null;
  }

  back(): boolean {
    if (this.viewing === null) return false;
    this.viewing = null;
    return true;
  }

  activity(): string {
    return this.viewing === null ? HOME_ACTIVITY : VIEWER_ACTIVITY;
  }

  reset(): void {
    this.viewing = null;
  }
}

export const photosApp: AndroidAppDefinition = {
  pkg: PHOTOS_PACKAGE,
  label: 'Photos',
  launcherActivity: HOME_ACTIVITY,
  icon: { background: '#ffffff', foreground: '#ea4335', letter: 'P' },
  versionName: '6.70.0',
  create: () => new PhotosInstance(),
};
