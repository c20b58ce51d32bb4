import {
  parseAwake,
  parseBattery,
  parseDisplay,
  parseFocusedPackage,
  parsePackageManagerResult,
  parseTopTask,
  parseKeyboardFrame,
  parseKeyboardShown,
  parseKeyguardShowing,
  parseLauncherActivities,
  parsePackageList,
  runningProcessNames,
} from './dumpsys';
import { readUiDump } from './ui-dump';

/*
 * Outputs in the shapes AOSP's dump code prints them (DisplayContent.dump, DisplayRotation.dump,
 * WindowManagerService, BatteryService, PowerManagerService, InputMethodManagerService, ResolveInfo.dump /
 * PackageItemInfo.dumpFront, toybox ps, uiautomator DumpCommand), trimmed to the lines around what is read.
 */

const WINDOW_PORTRAIT = `WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)
  Display: mDisplayId=0 (organized) rootTasks=2
    init=1080x2400 420dpi mMinSizeOfResizeableTaskDp=220 cur=1080x2400 app=1080x2337 rng=1080x1017-2337x2337
    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,1080,2400))
  mLayoutSeq=310
  mCurrentFocus=Window{8a1e0c5 u0 com.android.settings/com.android.settings.Settings}
  mFocusedApp=ActivityRecord{3f5e1b2 u0 com.android.settings/.Settings t12}
  DisplayRotation
    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED
    mLastOrientation=-1
    mRotation=0 mDeferredRotationPauseCount=0
    mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270
`;

const WINDOW_LANDSCAPE_OVERRIDE = `  Display: mDisplayId=0 (organized) rootTasks=2
    init=1080x2400 420dpi base=1080x2400 480dpi cur=2400x1080 app=2337x1080 rng=1080x1017-2337x2337
  mCurrentFocus=Window{1d2c3b4 u0 NotificationShade}
  mFocusedApp=ActivityRecord{99aa11 u0 com.android.chrome/com.google.android.apps.chrome.Main t31}
    mRotation=1 mDeferredRotationPauseCount=0
  mKeyguardShowing=false
`;

/** Android 9 wrote the focused app through its window token. */
const WINDOW_ANDROID_9 = `  mFocusedApp=AppWindowToken{27e3f5b token=Token{5e2f16a ActivityRecord{3d5d855 u0 com.example.shop/.MainActivity t5}}}
  mCurrentFocus=Window{a1b2c3 u0 com.example.shop/com.example.shop.MainActivity}
`;

describe('reading dumpsys', () => {
  it('reads the screen in pixels of its rotation, the density in effect and the rotation', () => {
    expect(parseDisplay(WINDOW_PORTRAIT)).toEqual({ width: 1080, height: 2400, densityDpi: 420, rotation: 0 });
    expect(parseDisplay(WINDOW_LANDSCAPE_OVERRIDE)).toEqual({ width: 2400, height: 1080, densityDpi: 480, rotation: 1 });
    expect(parseDisplay('Can\'t find service: window')).toBeUndefined();
  });

  it('names the app in front from the focused app, also under the shade and on Android 9', () => {
    expect(parseFocusedPackage(WINDOW_PORTRAIT)).toBe('com.android.settings');
    expect(parseFocusedPackage(WINDOW_LANDSCAPE_OVERRIDE)).toBe('com.android.chrome');
    expect(parseFocusedPackage(WINDOW_ANDROID_9)).toBe('com.example.shop');
    expect(parseFocusedPackage('  mCurrentFocus=Window{77 u0 com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity}')).toBe(
      'com.google.android.apps.nexuslauncher',
    );
    expect(parseFocusedPackage('  mCurrentFocus=null\n  mFocusedApp=null')).toBeUndefined();
  });

  it('reads battery level and state', () => {
    const battery = `Current Battery Service state:
  AC powered: false
  USB powered: true
  Max charging current: 500000
  status: 2
  health: 2
  present: true
  level: 87
  scale: 100
  voltage: 4180
`;
    expect(parseBattery(battery)).toEqual({ level: 0.87, state: 'charging' });
    expect(parseBattery(battery.replace('status: 2', 'status: 3'))).toEqual({ level: 0.87, state: 'unplugged' });
    expect(parseBattery(battery.replace('status: 2', 'status: 5').replace('level: 87', 'level: 100'))).toEqual({ level: 1, state: 'full' });
    expect(parseBattery('nothing')).toBeUndefined();
  });

  it('reads wakefulness, the keyguard and the soft keyboard', () => {
    expect(parseAwake('POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=Awake\n')).toBe(true);
    expect(parseAwake('  mWakefulness=Asleep\n')).toBe(false);
    expect(parseAwake('  mWakefulness=Dozing\n')).toBe(false);
    expect(parseAwake('')).toBeUndefined();
    expect(parseKeyguardShowing(WINDOW_LANDSCAPE_OVERRIDE)).toBe(false);
    expect(parseKeyguardShowing('    mKeyguardShowing=true mAodShowing=false')).toBe(true);
    expect(parseKeyguardShowing('    isStatusBarKeyguard=true mShowingDream=false')).toBe(true);
    expect(parseKeyboardShown('  mShowRequested=true mShowExplicitlyRequested=false mShowForced=false mInputShown=true\n')).toBe(true);
    expect(parseKeyboardShown('  mInputShown=false\n')).toBe(false);
  });

  it('finds the soft keyboard’s frame while it is visible (Android 11+ and older lines)', () => {
    const android14 = `WINDOW MANAGER WINDOWS (dumpsys window windows)
  Window #6 Window{5f1f2a8 u0 InputMethod}:
    mDisplayId=0 rootTaskId=1 mSession=Session{2a1b3c4 1234:u0a10128} mClient=android.os.BinderProxy@77aa
    mOwnerUid=10128 showForAllUsers=true package=com.google.android.inputmethod.latin appop=NONE
    mAttrs={(0,0)(fillxwrap) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan} ty=INPUT_METHOD fmt=TRANSPARENT}
    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[0,1449][1080,2400] last=[0,1449][1080,2400] insetsChanged=false
    isOnScreen=true
    isVisible=true
  Window #7 Window{77 u0 com.android.chrome/com.google.android.apps.chrome.Main}:
    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[0,0][1080,2400]
    isVisible=true
`;
    expect(parseKeyboardFrame(android14)).toEqual({ left: 0, top: 1449, right: 1080, bottom: 2400 });
    expect(parseKeyboardFrame(android14.replace('isVisible=true\n  Window #7', 'isVisible=false\n  Window #7'))).toBeUndefined();
    const android10 = '  Window #3 Window{a1 u0 InputMethod}:\n    mFrame=[0,1500][1080,2280] last=[0,1500][1080,2280]\n    isOnScreen=true isVisible=true\n';
    expect(parseKeyboardFrame(android10)).toEqual({ left: 0, top: 1500, right: 1080, bottom: 2280 });
    // Visible but no frame printed: nothing to place.
    expect(parseKeyboardFrame('  Window #2 Window{c3 u0 InputMethod}:\n    isOnScreen=true isVisible=true\n')).toBeUndefined();
  });

  it('lists packages, launcher activities with their plain labels, and process names', () => {
    expect(parsePackageList('package:com.android.settings\npackage:/data/app/~~x==/com.example.shop-1/base.apk=com.example.shop\n\n')).toEqual([
      'com.android.settings',
      'com.example.shop',
    ]);
    const activities = `2 activities found:
  Activity #0:
    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false
    ActivityInfo:
      name=com.android.settings.Settings
      packageName=com.android.settings
      labelRes=0x7f1401e4 nonLocalizedLabel=null icon=0x0 banner=0x0
      enabled=true exported=true directBootAware=true
  Activity #1:
    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false
    ActivityInfo:
      name=com.example.shop.MainActivity
      packageName=com.example.shop
      labelRes=0x0 nonLocalizedLabel=Shop & Go icon=0x7f0d0000 banner=0x0
`;
    expect(parseLauncherActivities(activities)).toEqual([{ appId: 'com.android.settings' }, { appId: 'com.example.shop', label: 'Shop & Go' }]);
    const brief = 'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\ncom.android.chrome/com.google.android.apps.chrome.Main\ncom.android.settings/.Settings\n';
    expect(parseLauncherActivities(brief)).toEqual([{ appId: 'com.android.chrome' }, { appId: 'com.android.settings' }]);
    const ps = `USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME
root             1     0 10904060 12012 do_epoll_wait       0 S init
u0_a123       4321   612 15280132 180340 do_epoll_wait      0 S com.android.settings
u0_a150       4400   612 15280132 180340 do_epoll_wait      0 S com.example.shop:remote
`;
    expect(runningProcessNames(ps)).toEqual(['init', 'com.android.settings', 'com.example.shop:remote']);
  });

  it('takes the XML out of a uiautomator dump to /dev/tty, and nothing from its error', () => {
    const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" bounds="[0,0][1080,2400]" /></hierarchy>`;
    expect(readUiDump(`${xml}UI hierchary dumped to: /dev/tty\n`)).toBe(xml);
    expect(readUiDump('ERROR: could not get idle state.\n')).toBeUndefined();
  });
});

describe('the app in front and package manager answers', () => {
  it('reads the top task on Android 14, through a permission dialog in the app’s task, and on Android 10', () => {
    const android14 = [
      'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
      'Display #0 (activities from top to bottom):',
      '  * Task{7c4d4b3 #35 type=standard A=10123:com.example.app U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=2}',
      '    mResumedActivity: ActivityRecord{1a2b3c u0 com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity t35}',
      '  * Task{1111111 #2 type=home A=10080:com.google.android.apps.nexuslauncher U=0 visible=false}',
      '  topResumedActivity=ActivityRecord{1a2b3c u0 com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity t35}',
    ].join('\n');
    expect(parseTopTask(android14)).toEqual({ pkg: 'com.google.android.permissioncontroller', affinity: 'com.example.app' });
    const android10 = [
      '    * TaskRecord{f00 #12 A=com.android.settings U=0 StackId=3 sz=1}',
      '      mResumedActivity: ActivityRecord{abc u0 com.android.settings/.Settings t12}',
    ].join('\n');
    expect(parseTopTask(android10)).toEqual({ pkg: 'com.android.settings', affinity: 'com.android.settings' });
    expect(parseTopTask('nothing resumed')).toBeUndefined();
  });

  it('reads Success and the failure codes PackageManager prints', () => {
    expect(parsePackageManagerResult('Performing Streamed Install\nSuccess\n')).toEqual({ ok: true });
    expect(parsePackageManagerResult('Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected]\n')).toEqual({ ok: false, code: 'INSTALL_FAILED_VERSION_DOWNGRADE', message: 'Downgrade detected' });
    expect(parsePackageManagerResult('Failure [DELETE_FAILED_INTERNAL_ERROR]\n')).toEqual({ ok: false, code: 'DELETE_FAILED_INTERNAL_ERROR', message: '' });
    expect(parsePackageManagerResult('Failed\n')).toMatchObject({ ok: false, code: 'UNKNOWN' });
  });
});
