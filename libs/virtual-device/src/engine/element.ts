/**
 * What one node of a screen is, for every platform the engine draws: the element types (short iOS accessibility
 * names; the Android phone maps them to widget classes), geometry in points, and the accessibility element.
 */

export type ElementType =
  | 'Application'
  | 'Window'
  | 'Other'
  | 'Button'
  | 'StaticText'
  | 'TextField'
  | 'SecureTextField'
  | 'SearchField'
  | 'TextView'
  | 'Switch'
  | 'Slider'
  | 'Cell'
  | 'Table'
  | 'CollectionView'
  | 'ScrollView'
  | 'Image'
  | 'Icon'
  | 'Link'
  | 'WebView'
  | 'Keyboard'
  | 'Key'
  | 'Alert'
  | 'Menu'
  | 'MenuItem'
  | 'NavigationBar'
  | 'TabBar'
  | 'Toolbar'
  | 'StatusBar';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One accessibility element of the current screen. All geometry in points. */
export interface PhoneElement {
  /** Unique and stable within the phone for the same element (e.g. "settings/row/wifi"): the face's element ids derive from it. */
  uid: string;
  type: ElementType;
  /** The accessibility identifier, if the app set one. */
  identifier?: string;
  label?: string;
  /** Switch: "1"/"0"; text inputs: their text; sliders: "50%". */
  value?: string;
  placeholder?: string;
  rect: Rect;
  enabled: boolean;
  /** Drawn at least partly inside the screen. */
  visible: boolean;
  accessible: boolean;
  selected: boolean;
  focused: boolean;
  /** UIAccessibilityTraits names, e.g. ["Button"], ["StaticText"], ["Button", "Selected"]. */
  traits: string[];
  children: PhoneElement[];
}
