import type {
  DriverStatus,
  HardwareButton,
  InstalledApp,
  Point,
  RawScreenshot,
  SwipeGesture,
  TypeTextRequest,
  UiNode,
} from '@apex/capability';

/** One platform's mapping of the port onto the automation server's commands. Units are points (dp on Android). */
export interface PlatformCommands {
  status(): Promise<DriverStatus>;
  screenshot(): Promise<RawScreenshot>;
  tap(point: Point): Promise<void>;
  swipe(gesture: SwipeGesture): Promise<void>;
  typeText(request: TypeTextRequest): Promise<void>;
  pressButton(button: HardwareButton): Promise<void>;
  launchApp(appId: string): Promise<void>;
  terminateApp(appId: string): Promise<boolean>;
  listApps?(): Promise<InstalledApp[]>;
  uiTree(): Promise<UiNode>;
  /** Cheap round trip to the device itself (not only to the server). */
  ping(): Promise<void>;
}
