/**
 * The words no client may ever see from Apex (driver and protocol names, raw connection errors, stack frames):
 * @apex/errors' one list, the one its error filter uses. The leakage-guard tests run every text they produce
 * through this.
 */
export { leakedWordsIn } from '@apex/errors';
