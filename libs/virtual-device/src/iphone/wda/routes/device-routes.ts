import { randomUUID } from 'node:crypto';
import type { Route, RouteContext } from '../router';
import { NO_ALERT_MESSAGE, NO_ALERT_OPEN_MESSAGE, WdaError, invalidArgument, unknownError } from '../wda-error';
import { onPhone } from './helpers';

/** Device, lock, orientation and alert commands (FBCustomCommands.m, FBOrientationCommands.m, FBAlertViewCommands.m). */

const deviceUuids = new WeakMap<object, string>();

function deviceInfo(context: RouteContext) {
  let uuid = deviceUuids.get(context.phone);
  if (!uuid) {
    uuid = randomUUID().toUpperCase();
    deviceUuids.set(context.phone, uuid);
  }
  return {
    currentLocale: 'en_US',
    timeZone: 'UTC',
    name: context.phone.deviceName(),
    model: 'iPhone',
    uuid,
    userInterfaceIdiom: 0,
    userInterfaceStyle: context.phone.appearance(),
    isSimulator: true,
    thermalState: 0,
  };
}

function pressButton(context: RouteContext) {
  const name = context.body['name'];
  if (typeof name !== 'string') throw invalidArgument("'name' is mandatory and must be a string");
  onPhone(() => context.phone.pressButton(name), {
    unknown_button: () => unknownError(`The button '${name}' is not supported. The device under test only supports the following buttons: home, volumeup, volumedown`),
  });
  return null;
}

const ORIENTATIONS: Record<string, 'PORTRAIT' | 'LANDSCAPE' | null> = {
  PORTRAIT: 'PORTRAIT',
  UIA_DEVICE_ORIENTATION_PORTRAIT: 'PORTRAIT',
  LANDSCAPE: 'LANDSCAPE',
  UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT: 'LANDSCAPE',
  UIA_DEVICE_ORIENTATION_PORTRAIT_UPSIDEDOWN: null,
};

function setOrientation(context: RouteContext) {
  const requested = context.body['orientation'];
  const target = typeof requested === 'string' ? ORIENTATIONS[requested.toUpperCase()] : undefined;
  if (!target) throw unknownError('Unable To Rotate Device');
  try {
    context.phone.setOrientation(target);
  } catch {
    throw unknownError('Unable To Rotate Device');
  }
  return null;
}

/** `/rotation` as {x, y, z} degrees: portrait is z 0, landscape (left) z 270 (FBOrientationCommands.m). */
function rotation(context: RouteContext) {
  return { x: 0, y: 0, z: context.phone.orientation() === 'LANDSCAPE' ? 270 : 0 };
}

function setRotation(context: RouteContext) {
  const { x, y, z } = context.body;
  const valid = x === 0 && y === 0 && (z === 0 || z === 90 || z === 270);
  if (!valid) throw unknownError(`Rotation ${JSON.stringify({ x, y, z })} is not supported. Only {x:0, y:0, z:0|90|270} is`);
  try {
    context.phone.setOrientation(z === 0 ? 'PORTRAIT' : 'LANDSCAPE');
  } catch {
    throw unknownError('Unable To Rotate Device');
  }
  return null;
}

function alertOrThrow(context: RouteContext, message = NO_ALERT_MESSAGE) {
  const alert = context.phone.alert();
  if (!alert) throw new WdaError('no such alert', message);
  return alert;
}

function answerAlert(context: RouteContext, accept: boolean) {
  const alert = alertOrThrow(context, NO_ALERT_OPEN_MESSAGE);
  const name = context.body['name'];
  if (name !== undefined && typeof name !== 'string') throw invalidArgument("'name' must be a string");
  if (name !== undefined && !alert.buttons.includes(name)) {
    throw new WdaError('invalid element state', `Failed to find button with label '${name}' for alert: ${alert.text}`);
  }
  onPhone(() => (accept ? context.phone.acceptAlert(name) : context.phone.dismissAlert(name)));
  return null;
}

export const deviceRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/wda/homescreen',
    mode: 'N',
    handler: (context) => {
      onPhone(() => context.phone.goHome());
      return null;
    },
  },
  { method: 'POST', pattern: '/wda/pressButton', mode: 'S', handler: pressButton },
  { method: 'GET', pattern: '/wda/device/info', mode: 'B', handler: deviceInfo },
  { method: 'GET', pattern: '/wda/batteryInfo', mode: 'S', handler: (context) => context.phone.battery() },
  { method: 'GET', pattern: '/wda/locked', mode: 'B', handler: (context) => context.phone.isLocked() },
  {
    method: 'POST',
    pattern: '/wda/lock',
    mode: 'B',
    handler: (context) => {
      onPhone(() => context.phone.lock());
      return null;
    },
  },
  {
    method: 'POST',
    pattern: '/wda/unlock',
    mode: 'B',
    handler: (context) => {
      onPhone(() => context.phone.unlock());
      return null;
    },
  },
  { method: 'GET', pattern: '/orientation', mode: 'B', handler: (context) => context.phone.orientation() },
  { method: 'POST', pattern: '/orientation', mode: 'B', handler: setOrientation },
  { method: 'GET', pattern: '/rotation', mode: 'B', handler: rotation },
  { method: 'POST', pattern: '/rotation', mode: 'B', handler: setRotation },
  { method: 'GET', pattern: '/alert/text', mode: 'B', handler: (context) => alertOrThrow(context).text },
  { method: 'POST', pattern: '/alert/accept', mode: 'B', handler: (context) => answerAlert(context, true) },
  { method: 'POST', pattern: '/alert/dismiss', mode: 'B', handler: (context) => answerAlert(context, false) },
  { method: 'GET', pattern: '/wda/alert/buttons', mode: 'S', handler: (context) => alertOrThrow(context).buttons },
];

