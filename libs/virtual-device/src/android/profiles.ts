/** An Android phone the virtual one can pretend to be. Layout is in dp; pixels = dp × density / 160. */
export interface AndroidProfile {
  id: string;
  /** `ro.product.model`, Settings → About phone → Model. */
  model: string;
  manufacturer: string;
  brand: string;
  /** `ro.product.name` / `ro.product.device` (the CNXN banner names them too). */
  product: string;
  device: string;
  /** Physical pixels, portrait. */
  widthPx: number;
  heightPx: number;
  /** Dots per inch as `wm density` reports it (160 = 1 px per dp). */
  density: number;
  serial: string;
}

export const ANDROID_PROFILES: Readonly<Record<string, AndroidProfile>> = Object.freeze({
  'pixel-8': {
    id: 'pixel-8',
    model: 'Pixel 8',
    manufacturer: 'Google',
    brand: 'google',
    product: 'shiba',
    device: 'shiba',
    widthPx: 1080,
    heightPx: 2400,
    density: 420,
    serial: 'APEXVIRT0001',
  },
  'small-phone': {
    id: 'small-phone',
    model: 'Apex Small Phone',
    manufacturer: 'Apex',
    brand: 'apex',
    product: 'apex_small',
    device: 'apex_small',
    widthPx: 720,
    heightPx: 1600,
    density: 320,
    serial: 'APEXVIRT0002',
  },
});

export const DEFAULT_ANDROID_PROFILE_ID = 'pixel-8';

/** Pixels per dp. */
export function pxPerDp(profile: AndroidProfile): number {
  return profile.density / 160;
}

export const ANDROID_RELEASE = '14';
export const ANDROID_SDK = 34;
export const BUILD_ID = 'UQ1A.240205.004';
