import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  // Benchmarks compose the whole stack (runtime, virtual iPhone) the way a script under tools/ would; they are
  // never imported by the library. The driver-package ban still applies.
  { files: ['bench/**/*.ts'], rules: { '@nx/enforce-module-boundaries': 'off' } },
];
