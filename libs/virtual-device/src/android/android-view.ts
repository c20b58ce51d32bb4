import type { View } from '../engine/view';

/**
 * A view of the Android phone: an engine view plus what the accessibility node of a real Android view carries
 * (class, resource id, content description, checkable…), read by `uiautomator dump`. Unset fields follow the
 * engine type (see `widgetClass`).
 */
export interface AndroidView extends View {
  /** `android.widget.Button`, `android.widget.TextView`… */
  className?: string;
  /** `com.android.settings:id/switch_widget`. */
  resourceId?: string;
  /** The node's text (defaults to `label` for text-bearing classes). */
  text?: string;
  contentDesc?: string;
  checkable?: boolean;
  checked?: boolean;
  scrollable?: boolean;
  longClickable?: boolean;
  password?: boolean;
  focusable?: boolean;
  /** The package of this window's views (set on a window's root, inherited below). */
  pkg?: string;
  children?: AndroidView[];
}

/** The Android widget class for an engine element type. */
export function widgetClass(v: AndroidView): string {
  if (v.className) return v.className;
  switch (v.type) {
    case 'Button':
      return 'android.widget.Button';
    case 'StaticText':
    case 'Icon':
      return 'android.widget.TextView';
    case 'TextField':
    case 'SearchField':
    case 'SecureTextField':
    case 'TextView':
      return 'android.widget.EditText';
    case 'Switch':
      return 'android.widget.Switch';
    case 'Image':
      return 'android.widget.ImageView';
    case 'Cell':
      return 'android.widget.LinearLayout';
    case 'Table':
    case 'CollectionView':
      return 'androidx.recyclerview.widget.RecyclerView';
    case 'ScrollView':
      return 'android.widget.ScrollView';
    case 'WebView':
      return 'android.webkit.WebView';
    case 'Key':
    case 'Keyboard':
      return 'android.view.View';
    default:
      return 'android.widget.FrameLayout';
  }
}
