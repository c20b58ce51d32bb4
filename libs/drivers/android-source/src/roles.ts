import type { Role } from '@apex/port';

/**
 * Android view classes (simple names; support-library and Material variants included) → neutral roles.
 * Anything else is `other`; containers directly inside a list become `cell` (see the normalizer).
 */
const ROLE_OF_CLASS: Record<string, Role> = {
  Button: 'button',
  ImageButton: 'button',
  AppCompatButton: 'button',
  AppCompatImageButton: 'button',
  MaterialButton: 'button',
  FloatingActionButton: 'button',
  ExtendedFloatingActionButton: 'button',
  RadioButton: 'button',
  AppCompatRadioButton: 'button',
  MaterialRadioButton: 'button',
  CheckBox: 'switch',
  AppCompatCheckBox: 'switch',
  MaterialCheckBox: 'switch',
  CheckedTextView: 'switch',
  Switch: 'switch',
  SwitchCompat: 'switch',
  SwitchMaterial: 'switch',
  MaterialSwitch: 'switch',
  ToggleButton: 'switch',
  TextView: 'text',
  AppCompatTextView: 'text',
  MaterialTextView: 'text',
  EditText: 'textField',
  AppCompatEditText: 'textField',
  TextInputEditText: 'textField',
  AutoCompleteTextView: 'textField',
  AppCompatAutoCompleteTextView: 'textField',
  MultiAutoCompleteTextView: 'textField',
  SearchAutoComplete: 'searchField',
  SeekBar: 'slider',
  AppCompatSeekBar: 'slider',
  RatingBar: 'slider',
  Slider: 'slider',
  ListView: 'list',
  GridView: 'list',
  ExpandableListView: 'list',
  RecyclerView: 'list',
  ScrollView: 'list',
  HorizontalScrollView: 'list',
  NestedScrollView: 'list',
  ViewPager: 'list',
  ViewPager2: 'list',
  ImageView: 'image',
  AppCompatImageView: 'image',
  ShapeableImageView: 'image',
  TabWidget: 'tabBar',
  TabLayout: 'tabBar',
  BottomNavigationView: 'tabBar',
  NavigationBarView: 'tabBar',
  Toolbar: 'navigationBar',
  MaterialToolbar: 'navigationBar',
  ActionBarContainer: 'navigationBar',
};

/** `android.widget.SearchView$SearchAutoComplete` → `SearchAutoComplete`. */
export function simpleClassName(className: string): string {
  const afterPackage = className.slice(className.lastIndexOf('.') + 1);
  return afterPackage.slice(afterPackage.lastIndexOf('$') + 1);
}

export function androidRoleOf(className: string): Role {
  return ROLE_OF_CLASS[simpleClassName(className)] ?? 'other';
}
