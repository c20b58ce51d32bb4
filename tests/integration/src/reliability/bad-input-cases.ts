import type { ErrorCode } from '@apex/errors';

/**
 * One table of bad calls, each an operation, its arguments and the semantic code it must be answered with —
 * whichever face carries it. `bad-input.spec.ts` sends every case through MCP (the SDK client at /mcp) and
 * through REST (the operation's route), and expects the same code from both. HTTP-only problems (media
 * types, body limits, routes) stay in tests/integration/src/rest/bad-inputs.spec.ts.
 */
export interface BadInputCase {
  name: string;
  operation: string;
  /** The operation's arguments, without `device` (the test adds the phone's id unless `device` says otherwise). */
  args: Record<string, unknown>;
  /** A device id other than the test phone's (e.g. an unknown one). */
  device?: string;
  code: ErrorCode;
  /** A field the error must name. */
  field?: string;
}

const longText = 'a'.repeat(2_001);

export const BAD_INPUT_CASES: readonly BadInputCase[] = [
  // tap
  { name: 'tap: x as a string', operation: 'tap', args: { x: 'ten', y: 10 }, code: 'invalid_argument', field: 'x' },
  { name: 'tap: negative x', operation: 'tap', args: { x: -1, y: 10 }, code: 'invalid_argument', field: 'x' },
  { name: 'tap: y missing', operation: 'tap', args: { x: 10 }, code: 'invalid_argument', field: 'y' },
  { name: 'tap: x null', operation: 'tap', args: { x: null, y: 10 }, code: 'invalid_argument', field: 'x' },
  { name: 'tap: y a boolean', operation: 'tap', args: { x: 10, y: true }, code: 'invalid_argument', field: 'y' },
  { name: 'tap: off the screen', operation: 'tap', args: { x: 5_000, y: 10 }, code: 'invalid_argument' },
  { name: 'tap: beyond any screen', operation: 'tap', args: { x: 10, y: 1e7 }, code: 'invalid_argument', field: 'y' },
  { name: 'tap: an unknown field', operation: 'tap', args: { x: 1, y: 1, force: 3 }, code: 'invalid_argument', field: 'force' },
  { name: 'tap: an unknown device', operation: 'tap', args: { x: 1, y: 1 }, device: 'no-such-phone', code: 'device_not_found' },
  // swipe
  { name: 'swipe: unknown direction', operation: 'swipe', args: { direction: 'diagonal' }, code: 'invalid_argument' },
  { name: 'swipe: too fast', operation: 'swipe', args: { direction: 'up', durationMs: 1 }, code: 'invalid_argument' },
  { name: 'swipe: from without to', operation: 'swipe', args: { from: { x: 10, y: 10 } }, code: 'invalid_argument' },
  { name: 'swipe: nothing', operation: 'swipe', args: {}, code: 'invalid_argument' },
  // input_text
  { name: 'input_text: empty text', operation: 'input_text', args: { text: '' }, code: 'invalid_argument', field: 'text' },
  { name: 'input_text: 2,001 characters', operation: 'input_text', args: { text: longText }, code: 'invalid_argument', field: 'text' },
  { name: 'input_text: text a number', operation: 'input_text', args: { text: 42 }, code: 'invalid_argument', field: 'text' },
  { name: 'input_text: submit a string', operation: 'input_text', args: { text: 'a', submit: 'yes' }, code: 'invalid_argument', field: 'submit' },
  // apps and buttons
  { name: 'launch_app: an app that is not installed', operation: 'launch_app', args: { appId: 'com.nope.Missing' }, code: 'app_not_found' },
  { name: 'launch_app: a malformed app id', operation: 'launch_app', args: { appId: 'not an id!' }, code: 'invalid_argument', field: 'appId' },
  { name: 'launch_app: appId missing', operation: 'launch_app', args: {}, code: 'invalid_argument', field: 'appId' },
  { name: 'terminate_app: a path as app id', operation: 'terminate_app', args: { appId: '../etc' }, code: 'invalid_argument', field: 'appId' },
  { name: 'press_button: unknown button', operation: 'press_button', args: { button: 'power' }, code: 'invalid_argument', field: 'button' },
  { name: 'list_apps: an unknown device', operation: 'list_apps', args: {}, device: 'no-such-phone', code: 'device_not_found' },
  { name: 'device_status: an unknown device', operation: 'device_status', args: {}, device: 'no-such-phone', code: 'device_not_found' },
  { name: 'launch_app: both appId and name', operation: 'launch_app', args: { appId: 'com.apple.Preferences', name: 'Settings' }, code: 'invalid_argument', field: 'name' },
  { name: 'launch_app: a name no app has', operation: 'launch_app', args: { name: 'Definitely Not An App' }, code: 'app_not_found' },
  { name: 'launch_app: a name without letters', operation: 'launch_app', args: { name: '  ..  ' }, code: 'invalid_argument', field: 'name' },
  // the controls beyond tap and swipe
  { name: 'long_press: too short', operation: 'long_press', args: { x: 10, y: 10, durationMs: 50 }, code: 'invalid_argument', field: 'durationMs' },
  { name: 'long_press: off the screen', operation: 'long_press', args: { x: 10, y: 5_000 }, code: 'invalid_argument' },
  { name: 'long_press: y missing', operation: 'long_press', args: { x: 10 }, code: 'invalid_argument', field: 'y' },
  { name: 'double_tap: x as a string', operation: 'double_tap', args: { x: 'left', y: 10 }, code: 'invalid_argument', field: 'x' },
  { name: 'double_tap: off the screen', operation: 'double_tap', args: { x: 9_000, y: 10 }, code: 'invalid_argument' },
  { name: 'swipe: holdMs beyond 5 s', operation: 'swipe', args: { direction: 'up', holdMs: 5_001 }, code: 'invalid_argument', field: 'holdMs' },
  { name: 'pinch: scale 0', operation: 'pinch', args: { scale: 0 }, code: 'invalid_argument', field: 'scale' },
  { name: 'pinch: scale missing', operation: 'pinch', args: {}, code: 'invalid_argument', field: 'scale' },
  { name: 'pinch: centre off the screen', operation: 'pinch', args: { scale: 2, center: { x: 10, y: 9_000 } }, code: 'invalid_argument', field: 'center.y' },
  { name: 'open_url: javascript:', operation: 'open_url', args: { url: 'javascript:alert(1)' }, code: 'invalid_argument', field: 'url' },
  { name: 'open_url: data:', operation: 'open_url', args: { url: 'data:text/html,<script>1</script>' }, code: 'invalid_argument', field: 'url' },
  { name: 'open_url: file:', operation: 'open_url', args: { url: 'file:///etc/passwd' }, code: 'invalid_argument', field: 'url' },
  { name: 'open_url: no scheme', operation: 'open_url', args: { url: 'apex.example/page' }, code: 'invalid_argument', field: 'url' },
  { name: 'open_url: url missing', operation: 'open_url', args: {}, code: 'invalid_argument', field: 'url' },
  { name: 'set_orientation: upside down', operation: 'set_orientation', args: { orientation: 'portraitUpsideDown' }, code: 'invalid_argument', field: 'orientation' },
  { name: 'set_clipboard: text a number', operation: 'set_clipboard', args: { text: 7 }, code: 'invalid_argument', field: 'text' },
  { name: 'set_clipboard: 10,001 characters', operation: 'set_clipboard', args: { text: 'a'.repeat(10_001) }, code: 'invalid_argument', field: 'text' },
  { name: 'get_clipboard: an unknown field', operation: 'get_clipboard', args: { format: 'html' }, code: 'invalid_argument', field: 'format' },
  { name: 'set_lock: locked a string', operation: 'set_lock', args: { locked: 'yes' }, code: 'invalid_argument', field: 'locked' },
  { name: 'hide_keyboard: an unknown device', operation: 'hide_keyboard', args: {}, device: 'no-such-phone', code: 'device_not_found' },
  { name: 'handle_alert: unknown action', operation: 'handle_alert', args: { action: 'ignore' }, code: 'invalid_argument', field: 'action' },
  { name: 'handle_alert: press without a button', operation: 'handle_alert', args: { action: 'press' }, code: 'invalid_argument', field: 'button' },
  { name: 'handle_alert: no alert on screen', operation: 'handle_alert', args: { action: 'accept' }, code: 'element_not_found' },
  { name: 'set_appearance: sepia', operation: 'set_appearance', args: { appearance: 'sepia' }, code: 'invalid_argument', field: 'appearance' },
  // the developer's loop (issue 33)
  { name: 'install_app: path missing', operation: 'install_app', args: {}, code: 'invalid_argument', field: 'path' },
  { name: 'install_app: path traversal', operation: 'install_app', args: { path: '../../etc/Secret.app' }, code: 'invalid_argument', field: 'path' },
  { name: 'install_app: a path outside the allowed folders', operation: 'install_app', args: { path: '/etc/Secret.app' }, code: 'invalid_argument', field: 'path' },
  { name: 'install_app: not a build', operation: 'install_app', args: { path: '/etc/hosts' }, code: 'invalid_argument', field: 'path' },
  { name: 'install_app: a control character in the path', operation: 'install_app', args: { path: 'a\u0000.app' }, code: 'invalid_argument', field: 'path' },
  { name: 'uninstall_app: a malformed app id', operation: 'uninstall_app', args: { appId: 'no such app' }, code: 'invalid_argument', field: 'appId' },
  { name: 'reset_app: appId missing', operation: 'reset_app', args: {}, code: 'invalid_argument', field: 'appId' },
  { name: 'app_state: a path as app id', operation: 'app_state', args: { appId: '../etc' }, code: 'invalid_argument', field: 'appId' },
  { name: 'background_app: seconds beyond 60', operation: 'background_app', args: { seconds: 61 }, code: 'invalid_argument', field: 'seconds' },
  { name: 'background_app: negative seconds', operation: 'background_app', args: { seconds: -1 }, code: 'invalid_argument', field: 'seconds' },
  { name: 'set_permission: an unknown permission', operation: 'set_permission', args: { appId: 'com.apple.Maps', permission: 'telepathy', state: 'granted' }, code: 'invalid_argument', field: 'permission' },
  { name: 'set_permission: an unknown state', operation: 'set_permission', args: { appId: 'com.apple.Maps', permission: 'location', state: 'maybe' }, code: 'invalid_argument', field: 'state' },
  { name: 'set_location: latitude beyond 90', operation: 'set_location', args: { latitude: 91, longitude: 0 }, code: 'invalid_argument', field: 'latitude' },
  { name: 'set_location: longitude missing', operation: 'set_location', args: { latitude: 10 }, code: 'invalid_argument', field: 'longitude' },
  { name: 'set_location: a position and clear', operation: 'set_location', args: { clear: true, latitude: 1 }, code: 'invalid_argument', field: 'latitude' },
  { name: 'set_location: clear false', operation: 'set_location', args: { clear: false }, code: 'invalid_argument', field: 'clear' },
  { name: 'biometric: an unknown action', operation: 'biometric', args: { action: 'smile' }, code: 'invalid_argument', field: 'action' },
  { name: 'push_notification: title missing', operation: 'push_notification', args: { appId: 'com.apple.Maps', body: 'x' }, code: 'invalid_argument', field: 'title' },
  { name: 'push_notification: a payload above 4 KB', operation: 'push_notification', args: { appId: 'com.apple.Maps', title: 't', body: 'b', payload: { x: 'y'.repeat(5_000) } }, code: 'invalid_argument', field: 'payload' },
  { name: 'add_media: not a photo or video', operation: 'add_media', args: { path: '/etc/hosts' }, code: 'invalid_argument', field: 'path' },
  { name: 'add_media: path traversal', operation: 'add_media', args: { path: '../../../etc/photo.png' }, code: 'invalid_argument', field: 'path' },
  { name: 'launch_app: a locale that is no language tag', operation: 'launch_app', args: { appId: 'com.apple.Maps', locale: 'French' }, code: 'invalid_argument', field: 'locale' },
  { name: 'launch_app: 33 arguments', operation: 'launch_app', args: { appId: 'com.apple.Maps', arguments: Array.from({ length: 33 }, () => '-x') }, code: 'invalid_argument', field: 'arguments' },
  { name: 'launch_app: an environment name with spaces', operation: 'launch_app', args: { appId: 'com.apple.Maps', environment: { 'A B': '1' } }, code: 'invalid_argument', field: 'environment.A B' },
  // finding and reading
  { name: 'find_text: text missing', operation: 'find_text', args: {}, code: 'invalid_argument', field: 'text' },
  { name: 'find_text: only punctuation', operation: 'find_text', args: { text: '...' }, code: 'invalid_argument', field: 'text' },
  { name: 'find_text: negative region width', operation: 'find_text', args: { text: 'a', region: { x: 0, y: 0, width: -5, height: 10 } }, code: 'invalid_argument', field: 'region.width' },
  { name: 'find_text: unknown source', operation: 'find_text', args: { text: 'a', source: 'magic' }, code: 'invalid_argument', field: 'source' },
  { name: 'find_icon: neither name nor template', operation: 'find_icon', args: {}, code: 'invalid_argument' },
  { name: 'find_icon: threshold above 1', operation: 'find_icon', args: { name: 'search', threshold: 2 }, code: 'invalid_argument', field: 'threshold' },
  { name: 'take_screenshot: gif', operation: 'take_screenshot', args: { format: 'gif' }, code: 'invalid_argument', field: 'format' },
  { name: 'take_screenshot: maxWidth too small', operation: 'take_screenshot', args: { maxWidth: 10 }, code: 'invalid_argument', field: 'maxWidth' },
  { name: 'get_ui_tree: maxDepth not a number', operation: 'get_ui_tree', args: { maxDepth: 'abc' }, code: 'invalid_argument', field: 'maxDepth' },
  { name: 'get_ui_tree: negative maxDepth', operation: 'get_ui_tree', args: { maxDepth: -1 }, code: 'invalid_argument', field: 'maxDepth' },
  { name: 'get_ui_tree: unknown format', operation: 'get_ui_tree', args: { format: 'yaml' }, code: 'invalid_argument', field: 'format' },
  { name: 'get_ui_tree: unknown option', operation: 'get_ui_tree', args: { depth: 2 }, code: 'invalid_argument', field: 'depth' },
  { name: 'describe_screen: maxElements 0', operation: 'describe_screen', args: { maxElements: 0 }, code: 'invalid_argument', field: 'maxElements' },
  { name: 'describe_screen: includeOcrText not a boolean', operation: 'describe_screen', args: { includeOcrText: 'maybe' }, code: 'invalid_argument', field: 'includeOcrText' },
  { name: 'describe_screen: an unknown device', operation: 'describe_screen', args: {}, device: 'no-such-phone', code: 'device_not_found' },
  // agent tasks
  { name: 'start_task: empty goal', operation: 'start_task', args: { goal: '   ' }, code: 'invalid_argument', field: 'goal' },
  { name: 'start_task: a 10,000-character goal', operation: 'start_task', args: { goal: 'x'.repeat(10_000) }, code: 'invalid_argument', field: 'goal' },
  { name: 'start_task: maxSteps 0', operation: 'start_task', args: { goal: 'open Settings', maxSteps: 0 }, code: 'invalid_argument', field: 'maxSteps' },
  { name: 'start_task: maxSteps 10^9', operation: 'start_task', args: { goal: 'open Settings', maxSteps: 1e9 }, code: 'invalid_argument', field: 'maxSteps' },
  { name: 'start_task: an unknown device', operation: 'start_task', args: { goal: 'open Settings' }, device: 'no-such-phone', code: 'device_not_found' },
  { name: 'get_task: an unknown task', operation: 'get_task', args: { taskId: 'no-such-task' }, code: 'task_not_found' },
  { name: 'cancel_task: an unknown task', operation: 'cancel_task', args: { taskId: 'no-such-task' }, code: 'task_not_found' },
  { name: 'list_tasks: unknown status', operation: 'list_tasks', args: { status: 'sleeping' }, code: 'invalid_argument', field: 'status' },
  // flows
  { name: 'run_flow: neither yaml nor flow', operation: 'run_flow', args: {}, code: 'invalid_argument', field: 'yaml' },
  { name: 'run_flow: an unknown step', operation: 'run_flow', args: { flow: { name: 'x', steps: [{ tapp: 'General' }] } }, code: 'invalid_argument', field: 'steps.0' },
  { name: 'run_flow: YAML that is not a flow', operation: 'run_flow', args: { yaml: '- a\n- list\n' }, code: 'invalid_argument' },
  { name: 'run_flow: an unknown device', operation: 'run_flow', args: { flow: { name: 'x', steps: [{ press: 'home' }] } }, device: 'no-such-phone', code: 'device_not_found' },
];
