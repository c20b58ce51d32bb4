import type { Rect } from './element';
import type { Theme } from './render/theme';

/** What every platform's screens need to lay themselves out: size, safe-area insets and colours. */
export interface ScreenEnv {
  /** Screen size in points for the current orientation. */
  width: number;
  height: number;
  /** Safe-area insets: the status bar at the top, the home indicator or navigation bar at the bottom. */
  top: number;
  bottom: number;
  theme: Theme;
  screen: Rect;
}
