/** Shared Jest settings: TypeScript through SWC (type-checking is the `typecheck` target's job). */
module.exports = {
  testEnvironment: 'node',
  setupFiles: [require('node:path').join(__dirname, 'tools/jest/hermetic-env.js')],
  // A guard against a hang, not a speed check: worker threads and servers start slowly on a loaded 2-core machine.
  testTimeout: 30_000,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
