/** Spec helpers (not part of the package's API): a WDA client, pixels, XML and phone elements. */
export * from './phone';
export * from './pixels';
export * from './wda-client';
export * from './xml';
export * from './android';
