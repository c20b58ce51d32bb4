import type { Rect, Role, UiNode } from '@apex/port';

/** Test support: a normalized UI node with sensible defaults. */
export function uiNode(
  role: Role,
  bounds: Rect,
  props: Partial<Omit<UiNode, 'role' | 'bounds' | 'children'>> = {},
  children: UiNode[] = [],
): UiNode {
  return {
    id: props.id ?? `${role}-${bounds.x}-${bounds.y}-${props.label ?? ''}`,
    role,
    bounds,
    enabled: props.enabled ?? true,
    visible: props.visible ?? true,
    selected: props.selected ?? false,
    focused: props.focused ?? false,
    ...(props.label !== undefined ? { label: props.label } : {}),
    ...(props.value !== undefined ? { value: props.value } : {}),
    ...(props.placeholder !== undefined ? { placeholder: props.placeholder } : {}),
    children,
  };
}

export const SCREEN = { x: 0, y: 0, width: 393, height: 852 };

/** A small Settings-like screen: nav bar, a list of rows (one with a switch), an off-screen row. */
export function settingsTree(): UiNode {
  const row = (label: string, y: number, extra: UiNode[] = []) =>
    uiNode('cell', { x: 0, y, width: 393, height: 44 }, { id: `row-${label}` }, [
      uiNode('other', { x: 0, y, width: 393, height: 44 }, {}, [uiNode('text', { x: 60, y: y + 12, width: 120, height: 20 }, { label })]),
      ...extra,
    ]);
  return uiNode('app', SCREEN, { id: 'app', label: 'Settings' }, [
    uiNode('window', SCREEN, { id: 'window' }, [
      uiNode('navigationBar', { x: 0, y: 54, width: 393, height: 44 }, { id: 'nav', label: 'Settings' }, [
        uiNode('text', { x: 150, y: 65, width: 90, height: 22 }, { label: 'Settings' }),
      ]),
      uiNode('list', { x: 0, y: 98, width: 393, height: 2000 }, { id: 'list' }, [
        row('Airplane Mode', 120, [
          uiNode('switch', { x: 320, y: 126, width: 51, height: 31 }, { id: 'sw-airplane', label: 'Airplane Mode', value: '0' }),
        ]),
        row('Wi-Fi', 164),
        row('Bluetooth', 208),
        row('Far Away', 1500),
      ]),
      uiNode('other', { x: 0, y: 300, width: 10, height: 10 }, { visible: false }, []),
    ]),
  ]);
}
