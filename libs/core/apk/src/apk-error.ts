/** Why a file is not a readable Android app build. The message completes "The file is not a usable app build: …". */
export class ApkError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ApkError';
  }
}
