/** Spec helpers (not part of the package's API): a WDA client, pixels, XML, phone elements, the real adb. */
export * from './phone';
export * from './pixels';
export * from './wda-client';
export * from './xml';
export * from './real-adb';
export * from './adb-test-shell';
export * from './adb-wire-client';
export * from './android';
