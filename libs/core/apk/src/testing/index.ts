/** Spec helpers: real APK-shaped bytes (zip + binary manifest + resource table) built at test time. */
export * from './build-apk';
