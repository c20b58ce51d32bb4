import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is waiting for the work under way: the signal of the client request an operation serves. Every device
 * action started on its behalf — by a primitive, by perception, at any depth — carries that signal, so a
 * client that disconnects or cancels withdraws its queued actions and aborts the running one, without each
 * layer passing a signal along.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` for a caller that may give up (`signal`); without a signal `fn` simply runs. */
export function onBehalfOf<T>(signal: AbortSignal | undefined, fn: () => T): T {
  return signal ? scope.run(signal, fn) : fn();
}

/** The signal of the caller the current work serves, if any. */
export function callerSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/** Runs `fn` for no caller in particular: work shared by several callers must not end when one gives up. */
export function forAnyCaller<T>(fn: () => T): T {
  return scope.exit(fn);
}
