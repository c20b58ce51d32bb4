export { createVirtualAndroid, type VirtualAndroid, type VirtualAndroidOptions } from './virtual-android';
export { AndroidPhone, AndroidPhoneError, type AndroidPhoneOptions } from './android-phone';
export { ANDROID_PROFILES, DEFAULT_ANDROID_PROFILE_ID, type AndroidProfile } from './profiles';
export { androidProfileFlag, runVirtualAndroidUntilSignal, type VirtualAndroidRunOptions } from './emulator-runner';
