/**
 * The REST face of the operations catalog, as data: each route names the operation it runs. GET routes take
 * the operation's input from the query string, POST routes from a JSON body; the `{id}` path parameter is
 * the operation's `device`. Responses are the operation's structured output as JSON, except for the
 * screenshot route, which answers with the image itself unless the client asks for JSON.
 */
export interface RestRoute {
  method: 'GET' | 'POST';
  /** Path template; `{id}` is a device id. */
  path: string;
  operation: string;
  /** How the output is sent: JSON (default) or as an image. */
  responder?: 'json' | 'image';
  /** The input field `{id}` fills (default `device`). */
  pathField?: string;
  /** The status of a success (default 200). */
  successStatus?: number;
}

/** The path parameter that carries the device id, and the input field it fills. */
export const DEVICE_PATH_PARAM = 'id';
export const DEVICE_INPUT_FIELD = 'device';

export const REST_ROUTES: readonly RestRoute[] = [
  { method: 'GET', path: '/devices', operation: 'list_devices' },
  { method: 'GET', path: '/devices/{id}', operation: 'device_status' },
  { method: 'POST', path: '/devices/{id}/wait-ready', operation: 'wait_for_device' },
  { method: 'POST', path: '/devices/{id}/tap', operation: 'tap' },
  { method: 'POST', path: '/devices/{id}/double-tap', operation: 'double_tap' },
  { method: 'POST', path: '/devices/{id}/long-press', operation: 'long_press' },
  { method: 'POST', path: '/devices/{id}/swipe', operation: 'swipe' },
  { method: 'POST', path: '/devices/{id}/pinch', operation: 'pinch' },
  { method: 'POST', path: '/devices/{id}/input', operation: 'input_text' },
  { method: 'POST', path: '/devices/{id}/hide-keyboard', operation: 'hide_keyboard' },
  { method: 'POST', path: '/devices/{id}/screenshot', operation: 'take_screenshot', responder: 'image' },
  { method: 'POST', path: '/devices/{id}/launch', operation: 'launch_app' },
  { method: 'POST', path: '/devices/{id}/terminate', operation: 'terminate_app' },
  { method: 'POST', path: '/devices/{id}/press-button', operation: 'press_button' },
  { method: 'POST', path: '/devices/{id}/alert', operation: 'handle_alert' },
  { method: 'POST', path: '/devices/{id}/open-url', operation: 'open_url' },
  { method: 'POST', path: '/devices/{id}/orientation', operation: 'set_orientation' },
  { method: 'POST', path: '/devices/{id}/appearance', operation: 'set_appearance' },
  { method: 'POST', path: '/devices/{id}/lock', operation: 'set_lock' },
  { method: 'GET', path: '/devices/{id}/clipboard', operation: 'get_clipboard' },
  { method: 'POST', path: '/devices/{id}/clipboard', operation: 'set_clipboard' },
  { method: 'POST', path: '/devices/{id}/find-text', operation: 'find_text' },
  { method: 'POST', path: '/devices/{id}/find-icon', operation: 'find_icon' },
  { method: 'GET', path: '/devices/{id}/ui-tree', operation: 'get_ui_tree' },
  { method: 'GET', path: '/devices/{id}/describe', operation: 'describe_screen' },
  { method: 'POST', path: '/devices/{id}/wait-for', operation: 'wait_for' },
  { method: 'GET', path: '/devices/{id}/apps', operation: 'list_apps' },
  // the developer's loop
  { method: 'POST', path: '/devices/{id}/apps/install', operation: 'install_app' },
  { method: 'POST', path: '/devices/{id}/apps/uninstall', operation: 'uninstall_app' },
  { method: 'POST', path: '/devices/{id}/apps/reset', operation: 'reset_app' },
  { method: 'GET', path: '/devices/{id}/apps/state', operation: 'app_state' },
  { method: 'POST', path: '/devices/{id}/background', operation: 'background_app' },
  { method: 'POST', path: '/devices/{id}/permission', operation: 'set_permission' },
  { method: 'POST', path: '/devices/{id}/location', operation: 'set_location' },
  { method: 'POST', path: '/devices/{id}/biometric', operation: 'biometric' },
  { method: 'POST', path: '/devices/{id}/push', operation: 'push_notification' },
  { method: 'POST', path: '/devices/{id}/media', operation: 'add_media' },
  // evidence
  { method: 'GET', path: '/devices/{id}/logs', operation: 'get_logs' },
  { method: 'GET', path: '/devices/{id}/crashes', operation: 'list_crashes' },
  { method: 'GET', path: '/devices/{id}/crash', operation: 'get_crash' },
];

/** The agent task routes (served when the context carries a task service); `{id}` is a task id here. */
export const TASK_ROUTES: readonly RestRoute[] = [
  { method: 'POST', path: '/agent/task', operation: 'start_task', successStatus: 202 },
  { method: 'GET', path: '/task/{id}', operation: 'get_task', pathField: 'taskId' },
  { method: 'GET', path: '/tasks', operation: 'list_tasks' },
  { method: 'POST', path: '/task/{id}/cancel', operation: 'cancel_task', pathField: 'taskId' },
  { method: 'POST', path: '/flows/run', operation: 'run_flow', successStatus: 202 },
  { method: 'GET', path: '/task/{id}/flow', operation: 'export_flow', pathField: 'taskId' },
];

/** The screen recording routes (served when the catalog has them): `{id}` is a device id. */
export const RECORDING_ROUTES: readonly RestRoute[] = [
  { method: 'POST', path: '/devices/{id}/recording/start', operation: 'start_recording', successStatus: 201 },
  { method: 'POST', path: '/devices/{id}/recording/stop', operation: 'stop_recording' },
  { method: 'GET', path: '/recordings', operation: 'list_recordings' },
];

/** A route template in Express's syntax: `{id}` becomes `{:id}`, optional so that an empty id reaches its schema. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, '{:$1}');
}

/**
 * The name of the path parameter whose raw text is not valid URL encoding, when `pathname` has the shape of one
 * of `templates` (Express refuses such a path before any route runs, without naming the parameter).
 */
export function undecodableParamOf(pathname: string, templates: readonly string[]): string | undefined {
  const actual = pathname.split('/');
  for (const template of templates) {
    const segments = template.split('/');
    if (segments.length !== actual.length) continue;
    const params = segments.map((segment) => /^\{(\w+)\}$/.exec(segment)?.[1]);
    if (segments.some((segment, i) => params[i] === undefined && segment !== actual[i])) continue;
    const bad = params.findIndex((name, i) => name !== undefined && !decodes(actual[i]));
    if (bad >= 0) return params[bad];
  }
  return undefined;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
