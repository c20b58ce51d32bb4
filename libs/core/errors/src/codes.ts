/**
 * The one table of semantic error codes. Every layer speaks these; each transport maps them once
 * (MCP: `isError` results, REST: problem+json with `httpStatus`).
 */
export const ERROR_CODES = {
  invalid_argument: { httpStatus: 400, retryable: false, title: 'Invalid argument' },
  unauthorized: { httpStatus: 401, retryable: false, title: 'Unauthorized' },
  device_not_found: { httpStatus: 404, retryable: false, title: 'Device not found' },
  element_not_found: { httpStatus: 404, retryable: false, title: 'Element not found' },
  app_not_found: { httpStatus: 404, retryable: false, title: 'App not found' },
  task_not_found: { httpStatus: 404, retryable: false, title: 'Task not found' },
  recording_not_found: { httpStatus: 404, retryable: false, title: 'Recording not found' },
  device_busy: { httpStatus: 409, retryable: true, title: 'Device busy' },
  internal: { httpStatus: 500, retryable: false, title: 'Internal error' },
  unsupported_operation: { httpStatus: 501, retryable: false, title: 'Unsupported operation' },
  device_error: { httpStatus: 502, retryable: false, title: 'Device error' },
  device_offline: { httpStatus: 503, retryable: true, title: 'Device offline' },
  device_timeout: { httpStatus: 504, retryable: true, title: 'Device timeout' },
  /** A service Apex depends on (the shared task database) cannot be reached now; nothing was done. */
  unavailable: { httpStatus: 503, retryable: true, title: 'Service unavailable' },
} as const satisfies Record<string, { httpStatus: number; retryable: boolean; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].httpStatus;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}
