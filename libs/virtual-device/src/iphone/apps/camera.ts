import type { AppDefinition, AppInstance, Env, PhoneServices } from './app';
import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import type { View } from '../../engine/view';
import type { ObjcException } from '../device/diagnostics';

export const CAMERA_BUNDLE_ID = 'com.apple.camera';

/** What the capture stack throws on a phone without a camera: the app's way to crash, for crash reports. */
export const CAMERA_CRASH: ObjcException = {
  name: 'NSInternalInconsistencyException',
  reason: 'No capture device is available on this phone',
  frames: ['-[CAMCaptureEngine startCaptureSession]', '-[CAMViewfinderViewController openCamera:]', '-[UIApplication sendAction:to:from:forEvent:]', 'UIApplicationMain'],
};

/** Camera: "No camera on a virtual phone", and an "Open Camera" button that crashes the app. */
class CameraApp implements AppInstance {
  private services?: PhoneServices;

  activated(services: PhoneServices): void {
    this.services = services;
    services.log(CAMERA_BUNDLE_ID, 'Viewfinder shown; no capture device');
  }

  focusedInput(): null {
    return null;
  }

  reset(): void {
    /* nothing transient */
  }

  windows(env: Env): View[] {
    const top = env.top + NAV_BAR_HEIGHT + 40;
    const lines = ['Camera', 'No camera on a virtual phone'];
    const texts: View[] = lines.map((line, i) => {
      const w = Math.ceil(measure(line, 17));
      const cy = top + i * 32;
      return {
        uid: `camera/line/${i}`,
        type: 'StaticText',
        label: line,
        value: line,
        rect: { x: Math.round((env.width - w) / 2), y: cy - 11, width: w, height: 22 },
        draw: ({ ctx, theme }) => drawText(ctx, line, env.width / 2, cy, { size: 17, color: i === 0 ? theme.label : theme.secondaryLabel, align: 'center' }),
      };
    });
    const button = { x: Math.round(env.width / 2 - 80), y: top + 80, width: 160, height: 44 };
    const open: View = {
      uid: 'camera/open',
      type: 'Button',
      label: 'Open Camera',
      identifier: 'OpenCameraButton',
      rect: button,
      onTap: () => this.services?.crash(CAMERA_BUNDLE_ID, CAMERA_CRASH),
      draw: ({ ctx, theme }) => {
        fillRoundRect(ctx, button, 12, theme.tint);
        drawText(ctx, 'Open Camera', env.width / 2, button.y + button.height / 2, { size: 17, color: '#ffffff', align: 'center' });
      },
    };
    return [
      {
        uid: 'camera/window',
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx, theme }) => fillRect(ctx, env.screen, theme.background),
        children: [navBar(env, { uid: 'camera/navbar', title: 'Camera' }), ...texts, open],
      },
    ];
  }
}

export const cameraApp: AppDefinition = {
  bundleId: CAMERA_BUNDLE_ID,
  name: 'Camera',
  icon: { background: '#8e8e93', foreground: '#ffffff', letter: 'C' },
  create: () => new CameraApp(),
};
