import type { Role } from '@apex/port';

/** Platform element types (without the `XCUIElementType` prefix) → neutral roles; anything else is `other`. */
const ROLE_OF_TYPE: Record<string, Role> = {
  Button: 'button',
  StaticText: 'text',
  TextField: 'textField',
  TextView: 'textField',
  SecureTextField: 'secureTextField',
  SearchField: 'searchField',
  Switch: 'switch',
  Toggle: 'switch',
  Slider: 'slider',
  Cell: 'cell',
  Table: 'list',
  CollectionView: 'list',
  ScrollView: 'list',
  Image: 'image',
  Icon: 'icon',
  Link: 'link',
  Keyboard: 'keyboard',
  Key: 'key',
  Alert: 'alert',
  Sheet: 'alert',
  NavigationBar: 'navigationBar',
  TabBar: 'tabBar',
  Toolbar: 'toolbar',
  Window: 'window',
  Application: 'app',
};

export function shortTypeName(type: string): string {
  return type.startsWith('XCUIElementType') ? type.slice('XCUIElementType'.length) : type;
}

export function roleOf(type: string): Role {
  return ROLE_OF_TYPE[shortTypeName(type)] ?? 'other';
}
