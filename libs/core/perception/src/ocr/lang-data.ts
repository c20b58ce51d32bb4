import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ApexError } from '@apex/errors';

/** The folder holding `eng.traineddata.gz` from the npm package `@tesseract.js-data/eng` (nothing is downloaded). */
export function englishLangPath(): string {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  } catch (cause) {
    throw new ApexError('internal', 'The OCR language data is not installed.', {
      cause,
      hint: 'Install the npm package @tesseract.js-data/eng.',
    });
  }
  const langPath = join(packageDir, '4.0.0_best_int');
  if (!existsSync(join(langPath, 'eng.traineddata.gz'))) {
    throw new ApexError('internal', 'The OCR language data is incomplete.', {
      hint: `Expected eng.traineddata.gz in ${langPath}; reinstall @tesseract.js-data/eng.`,
    });
  }
  return langPath;
}
