import { shortClass } from '../../android-phone';
import { BATTERY_PERCENT } from '../../ui/system-bars';
import { stableHash, type Command, type CommandIO } from '../command';
import { packageDump } from './packages';

/** The display's unique id as SurfaceFlinger and DisplayManager name it. */
export const DISPLAY_UNIQUE_ID = '4619827259835644672';

function record(pkg: string, activity: string, task: number): string {
  return `ActivityRecord{${stableHash(pkg + activity)} u0 ${pkg}/${shortClass(pkg, activity)} t${task}}`;
}

function taskId(pkg: string): number {
  return 100 + (parseInt(stableHash(pkg), 16) % 900);
}

/** `dumpsys window`: the focus and rotation lines drivers read. */
function windowDump(io: CommandIO): string {
  const phone = io.phone;
  const focus = phone.focus();
  const { width, height } = phone.screenSizePx();
  const rotation = phone.rotation();
  // The app area: the screen less the navigation bar (at the bottom, or the right edge in landscape).
  const bar = Math.round(48 * phone.scale);
  const app = rotation % 2 === 0 ? `${width}x${height - bar}` : `${width - bar}x${height}`;
  // `pkg/full.ActivityClass`, or a system window's title (NotificationShade).
  const windowName = focus.window;
  const imeShown = phone.keyboardShown();
  const locked = phone.isLocked();
  return [
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
    `  Display: mDisplayId=0 rootTasks=${phone.runningPackages().length + 1}`,
    `    init=${phone.profile.widthPx}x${phone.profile.heightPx} ${phone.profile.density}dpi base=${phone.profile.widthPx}x${phone.profile.heightPx} ${phone.profile.density}dpi cur=${width}x${height} app=${app} rng=${phone.profile.widthPx}x${phone.profile.widthPx}-${phone.profile.heightPx}x${phone.profile.heightPx}`,
    `    mDisplayRotation=ROTATION_${rotation * 90}`,
    '  DisplayRotation',
    `    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED`,
    `    mRotation=${rotation} mDeferredRotationPauseCount=0`,
    '    mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270',
    '    mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180',
    `    mUserRotationMode=${phone.system.get('system', 'accelerometer_rotation') === '1' ? 'USER_ROTATION_FREE' : 'USER_ROTATION_LOCKED'} mUserRotation=ROTATION_${phone.system.rotation * 90} mCameraRotationMode=0`,
    '',
    'WINDOW MANAGER WINDOWS (dumpsys window windows)',
    `  Window #0 Window{${stableHash('StatusBar')} u0 StatusBar}:`,
    `  Window #1 Window{${stableHash('NavigationBar0')} u0 NavigationBar0}:`,
    `  Window #2 Window{${stableHash('InputMethod')} u0 InputMethod}:`,
    `    isOnScreen=${imeShown} isVisible=${imeShown}`,
    `  Window #3 Window{${stableHash(windowName)} u0 ${windowName}}:`,
    '',
    `  mCurrentFocus=Window{${stableHash(windowName)} u0 ${windowName}}`,
    `  mFocusedApp=${record(focus.pkg, focus.activity, taskId(focus.task))}`,
    `  mInputMethodWindow=Window{${stableHash('InputMethod')} u0 InputMethod}`,
    `  mIsImeShowing=${imeShown}`,
    `  mAwake=${phone.isAwake()}`,
    `  mScreenOnEarly=${phone.isAwake()} mScreenOnFully=${phone.isAwake()}`,
    `  mKeyguardShowing=${locked}`,
    `  isStatusBarKeyguard=${locked}`,
    `  mShowingLockscreen=${locked} mShowingDream=false mDreamingLockscreen=${locked && !phone.isAwake()}`,
    '',
  ].join('\n');
}

function activitiesDump(io: CommandIO): string {
  const phone = io.phone;
  const focus = phone.focus();
  // The permission dialog runs in the asking app's task, over the app's own activity.
  const top = record(focus.pkg, focus.activity, taskId(focus.task));
  return [
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
    'Display #0 (activities from top to bottom):',
    `  * Task{${stableHash(`task${focus.task}`)} #${taskId(focus.task)} type=standard A=${phone.uidOf(focus.task) ?? 10000}:${focus.task} U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=${focus.task === focus.pkg ? 1 : 2}}`,
    `    mResumedActivity: ${top}`,
    `    * Hist  #0: ${top}`,
    '',
    '  Resumed activities in task display areas (from top to bottom):',
    `    ResumedActivity: ${top}`,
    '',
    `  ResumedActivity: ${top}`,
    `  mFocusedApp=${top}`,
    `  topResumedActivity=${top}`,
    '',
  ].join('\n');
}

function batteryDump(): string {
  return [
    'Current Battery Service state:',
    '  AC powered: false',
    '  USB powered: true',
    '  Wireless powered: false',
    '  Dock powered: false',
    '  Max charging current: 500000',
    '  Max charging voltage: 5000000',
    '  Charge counter: 3400000',
    '  status: 2',
    '  health: 2',
    '  present: true',
    `  level: ${BATTERY_PERCENT}`,
    '  scale: 100',
    '  voltage: 4180',
    '  temperature: 250',
    '  technology: Li-ion',
    '',
  ].join('\n');
}

function powerDump(io: CommandIO): string {
  const awake = io.phone.isAwake();
  return [
    'POWER MANAGER (dumpsys power)',
    '',
    'Power Manager State:',
    `  mDirty=0x0`,
    `  mWakefulness=${awake ? 'Awake' : 'Asleep'}`,
    '  mWakefulnessChanging=false',
    '  mIsPowered=true',
    '  mPlugType=2',
    `  mBatteryLevel=${BATTERY_PERCENT}`,
    `  mHoldingDisplaySuspendBlocker=${awake}`,
    '',
    `Display Power: state=${awake ? 'ON' : 'OFF'}`,
    '',
  ].join('\n');
}

function inputMethodDump(io: CommandIO): string {
  const shown = io.phone.keyboardShown();
  const focus = io.phone.focus();
  return [
    'Current Input Method Manager state:',
    '  Input Methods: mMethodMapUpdateCount=1',
    '  InputMethod #0:',
    '    mId=com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
    `  mCurMethodId=com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME`,
    `  mCurFocusedWindowClient=${focus.pkg}`,
    `  mShowRequested=${shown} mShowExplicitlyRequested=false mShowForced=false mInputShown=${shown}`,
    `  mInputShown=${shown}`,
    `  mIsInputViewShown=${shown}`,
    '',
  ].join('\n');
}

function displayDump(io: CommandIO): string {
  const phone = io.phone;
  const { widthPx: w, heightPx: h, density } = phone.profile;
  const { width, height } = phone.screenSizePx();
  const on = phone.isAwake() ? 'ON' : 'OFF';
  return [
    'DISPLAY MANAGER (dumpsys display)',
    '  mOnlyCore=false',
    `  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:${DISPLAY_UNIQUE_ID}', physicalPort=0, orientation=${phone.rotation()}, logicalFrame=Rect(0, 0 - ${width}, ${height}), physicalFrame=Rect(0, 0 - ${width}, ${height}), deviceWidth=${width}, deviceHeight=${height}}]`,
    '',
    'Display Devices: size=1',
    `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:${DISPLAY_UNIQUE_ID}", ${w} x ${h}, modeId 1, renderFrameRate 60.0, defaultModeId 1, density ${density}, ${density}.0 x ${density}.0 dpi, type INTERNAL, state ${on}, FLAG_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}`,
    '',
    'Logical Displays: size=1',
    '  Display 0:',
    `    mDisplayId=0`,
    `    mPrimaryDisplayDevice=Built-in Screen`,
    '',
    `Display Id=0`,
    `Display State=${on}`,
    '',
  ].join('\n');
}

/** `dumpsys input`: the touch screen and the orientation its coordinates follow. */
function inputDump(io: CommandIO): string {
  const { widthPx, heightPx } = io.phone.profile;
  return [
    'INPUT MANAGER (dumpsys input)',
    '',
    'Input Manager State:',
    `  Interactive: ${io.phone.isAwake()}`,
    '',
    'Input Reader State (Nums of device: 1):',
    '  Device 2: virtual_touchscreen',
    '    Sources: TOUCHSCREEN',
    '    Touch Input Mapper (mode - DIRECT):',
    `      SurfaceOrientation: ${io.phone.rotation()}`,
    `      RawSurfaceWidth: ${widthPx}px`,
    `      RawSurfaceHeight: ${heightPx}px`,
    '',
  ].join('\n');
}

/** `dumpsys SurfaceFlinger --display-id`: one line per display. */
export function surfaceFlingerDisplays(): string {
  return `Display ${DISPLAY_UNIQUE_ID} (HWC display 0): port=0 pnpId=GGL displayName="Common Panel"\n`;
}

/** `dumpsys window|activity|battery|power|input_method|display|SurfaceFlinger`. */
export const dumpsys: Command = (argv, io) => {
  const [service, ...args] = argv.slice(1);
  switch (service) {
    case 'window':
      io.out(windowDump(io));
      return 0;
    case 'activity':
      if (args[0] === undefined || args[0] === 'activities' || args[0] === 'a' || args[0] === 'top') io.out(activitiesDump(io));
      else if (args[0] === 'recents' || args[0] === 'r') io.out('ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n');
      else io.out(activitiesDump(io));
      return 0;
    case 'battery':
      io.out(batteryDump());
      return 0;
    case 'power':
      io.out(powerDump(io));
      return 0;
    case 'input_method':
      io.out(inputMethodDump(io));
      return 0;
    case 'display':
      io.out(displayDump(io));
      return 0;
    case 'input':
      io.out(inputDump(io));
      return 0;
    case 'package':
      io.out(packageDump(args.find((a) => !a.startsWith('-')), io));
      return 0;
    case 'SurfaceFlinger':
      if (args.includes('--display-id')) io.out(surfaceFlingerDisplays());
      else io.out(`Display ${DISPLAY_UNIQUE_ID} (HWC display 0): port=0\n`);
      return 0;
    case undefined:
      io.out('Currently running services:\n  activity\n  battery\n  display\n  input\n  input_method\n  power\n  SurfaceFlinger\n  window\n');
      return 0;
    default:
      io.err(`Can't find service: ${service}\n`);
      return 0;
  }
};
