import { ApexError } from '@apex/errors';

/**
 * Settles with `work`, or rejects with `device_timeout` after `timeoutMs`. The late outcome of `work` is
 * swallowed so it can neither crash the process nor hold the device's queue.
 */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => ApexError): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function deviceTimeout(deviceId: string, action: string, timeoutMs: number): ApexError {
  return new ApexError(
    'device_timeout',
    `Device ${deviceId} did not finish "${action}" within ${timeoutMs} ms.`,
    { hint: 'The device may be slow or stuck; retry, and check the device if it keeps happening.' },
  );
}
