import type { AndroidView } from '../android-view';
import { appWindow, contentRect, textButton, textView } from '../ui/widgets';
import type { AndroidAppDefinition, JavaException } from './app';

export const CAMERA_PACKAGE = 'com.google.android.GoogleCamera';
const ACTIVITY = 'com.android.camera.CameraLauncher';

/** What the camera stack throws on a phone without a camera: the app's way to crash, for crash reports. */
export const CAMERA_CRASH: JavaException = {
  className: 'java.lang.RuntimeException',
  message: 'Fail to connect to camera service',
  frames: [
    'android.hardware.Camera.<init>(Camera.java:557)',
    'android.hardware.Camera.open(Camera.java:427)',
    'com.android.camera.CameraLauncher.openCamera(CameraLauncher.java:212)',
    'com.android.camera.CameraLauncher.onOpenCameraClicked(CameraLauncher.java:148)',
    'android.view.View.performClick(View.java:7659)',
    'android.os.Handler.handleCallback(Handler.java:958)',
    'android.os.Looper.loop(Looper.java:294)',
    'android.app.ActivityThread.main(ActivityThread.java:8177)',
  ],
};

/** Camera: a titled screen saying there is no camera, and an "Open camera" button that crashes the app. */
export const cameraApp: AndroidAppDefinition = {
  pkg: CAMERA_PACKAGE,
  label: 'Camera',
  launcherActivity: ACTIVITY,
  icon: { background: '#5f6368', foreground: '#ffffff', letter: 'O' },
  versionName: '1.0',
  create: () => ({
    window: (env) => {
      const content = contentRect(env);
      const views: AndroidView[] = [
        textView(env, `${CAMERA_PACKAGE}/title`, 'Camera', { x: 24, y: content.y + 24, width: 300, height: 40 }, { size: 28 }),
        textView(env, `${CAMERA_PACKAGE}/line/0`, 'No camera on a virtual phone', { x: 24, y: content.y + 88, width: env.width - 48, height: 28 }, { size: 16, color: env.theme.secondaryLabel }),
        textButton(env, `${CAMERA_PACKAGE}/open`, 'Open camera', { x: 24, y: content.y + 136, width: 180, height: 44 }, () => env.services.crash(CAMERA_PACKAGE, CAMERA_CRASH), {
          resourceId: `${CAMERA_PACKAGE}:id/open_camera`,
          filled: true,
        }),
      ];
      return appWindow(env, CAMERA_PACKAGE, views);
    },
    focusedInput: () => null,
    back: () => false,
    activity: () => ACTIVITY,
    reset: () => undefined,
  }),
};
