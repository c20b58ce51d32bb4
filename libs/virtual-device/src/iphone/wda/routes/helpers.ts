import { PhoneError, type PhoneErrorKind } from '../../model';
import type { RouteContext } from '../router';
import { NO_ALERT_MESSAGE, WdaError, invalidArgument, type WdaErrorName } from '../wda-error';

/** How each phone failure surfaces over WDA, unless a route says otherwise. */
const PHONE_ERROR_MAP: Record<PhoneErrorKind, WdaErrorName> = {
  app_not_installed: 'invalid argument',
  no_focused_element: 'invalid element state',
  no_alert: 'no such alert',
  unknown_button: 'unknown error',
  invalid_argument: 'invalid argument',
  element_gone: 'stale element reference',
  no_app_for_url: 'unknown error',
  keyboard_stays: 'invalid element state',
  rotation_refused: 'unknown error',
  system_app: 'unknown error',
};

/** Runs a phone call, turning a `PhoneError` into WDA's error for its kind. */
export function onPhone<T>(call: () => T, overrides: Partial<Record<PhoneErrorKind, (message: string) => WdaError>> = {}): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof PhoneError) {
      const override = overrides[error.kind];
      if (override) throw override(error.message);
      throw new WdaError(PHONE_ERROR_MAP[error.kind], error.kind === 'no_alert' ? NO_ALERT_MESSAGE : error.message);
    }
    throw error;
  }
}

export function requireString(context: RouteContext, name: string): string {
  const value = context.body[name] ?? context.params[name];
  if (typeof value !== 'string' || value === '') throw invalidArgument(`'${name}' is mandatory and must be a non-empty string`);
  return value;
}

export function optionalNumber(context: RouteContext, name: string): number | undefined {
  const value = context.body[name];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw invalidArgument(`'${name}' must be a number`);
  return number;
}

export function requireNumber(context: RouteContext, name: string): number {
  const value = optionalNumber(context, name);
  if (value === undefined) throw invalidArgument(`'${name}' is mandatory and must be a number`);
  return value;
}

/** `value` as WDA's typing routes take it: an array of strings joined, or a string. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join('');
  return undefined;
}
