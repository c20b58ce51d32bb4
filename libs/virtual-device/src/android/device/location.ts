/** A position fix, in degrees. */
export interface GeoFix {
  latitude: number;
  longitude: number;
}

/** Where the phone "is" when nothing simulates a position: the Android emulator's default fix (Mountain View). */
export const DEFAULT_FIX: GeoFix = { latitude: 37.421998, longitude: -122.084 };

interface TestProvider {
  enabled: boolean;
  fix?: GeoFix;
}

/**
 * The location service as `cmd location` (Android 12+, LocationShellCommand) and `appops` drive it: location on
 * or off, and test providers (gps, network, fused) that only a caller allowed MOCK_LOCATION may add or feed —
 * as on Android, a caller without it is ignored silently. The fix apps see: an enabled test provider's
 * (gps first), else the phone's own default.
 */
export class LocationService {
  enabled = true;
  private readonly providers = new Map<string, TestProvider>();
  /** App ops set with `appops set PKG OP MODE`: `PKG OP` → mode. */
  private readonly appOps = new Map<string, string>();

  setAppOp(pkg: string, op: string, mode: string): void {
    this.appOps.set(`${pkg} ${normalizeOp(op)}`, mode);
  }

  appOp(pkg: string, op: string): string | undefined {
    return this.appOps.get(`${pkg} ${normalizeOp(op)}`);
  }

  private mayMock(caller: string): boolean {
    return this.appOp(caller, 'MOCK_LOCATION') === 'allow';
  }

  addTestProvider(caller: string, name: string): void {
    if (this.mayMock(caller) && !this.providers.has(name)) this.providers.set(name, { enabled: false });
  }

  removeTestProvider(caller: string, name: string): void {
    if (this.mayMock(caller)) this.providers.delete(name);
  }

  /** False when the provider does not exist (the command then fails as Android's does). */
  setTestProviderEnabled(caller: string, name: string, enabled: boolean): boolean {
    if (!this.mayMock(caller)) return true;
    const p = this.providers.get(name);
    if (!p) return false;
    p.enabled = enabled;
    return true;
  }

  setTestProviderLocation(caller: string, name: string, fix: GeoFix): boolean {
    if (!this.mayMock(caller)) return true;
    const p = this.providers.get(name);
    if (!p) return false;
    p.fix = fix;
    return true;
  }

  testProviders(): string[] {
    return [...this.providers.keys()];
  }

  /** What an app with the location permission sees; undefined while location is off. */
  current(): GeoFix | undefined {
    if (!this.enabled) return undefined;
    for (const name of ['gps', 'fused', 'network', ...this.providers.keys()]) {
      const p = this.providers.get(name);
      if (p?.enabled && p.fix) return p.fix;
    }
    return DEFAULT_FIX;
  }
}

/** `android:mock_location` and `MOCK_LOCATION` name the same op. */
function normalizeOp(op: string): string {
  return op.replace(/^android:/, '').toUpperCase();
}
