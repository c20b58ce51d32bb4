import { ApexError } from './apex-error';

/** The ApexError a promise rejects with; anything else (or no rejection) fails the test. */
export async function rejectionOf(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an ApexError');
}

/** The ApexError a function throws; anything else (or no throw) fails the test. */
export function thrownBy(fn: () => unknown): ApexError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw error;
  }
  throw new Error('expected the call to throw an ApexError');
}
export { leakedWordsIn } from './leaked-words';
