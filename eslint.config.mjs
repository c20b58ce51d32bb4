import nx from '@nx/eslint-plugin';

/** Packages that only the driver layer may import: a client never sees which driver runs a device. */
const DRIVER_PACKAGES = ['appium', 'appium-xcuitest-driver', 'appium-uiautomator2-driver', 'webdriverio'];

/**
 * The layer table of ARCHITECTURE.md. Every project carries a `type:*` tag; there is no catch-all,
 * so an untagged project (or an unknown tag) cannot depend on anything.
 */
const depConstraints = [
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: DRIVER_PACKAGES },
  // The port: the driver interface and neutral types, which drivers and the core both see.
  { sourceTag: 'type:port', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: DRIVER_PACKAGES },
  {
    sourceTag: 'type:core',
    onlyDependOnLibsWithTags: ['type:core', 'type:port', 'type:util'],
    bannedExternalImports: DRIVER_PACKAGES,
  },
  // A driver sees the port, the errors and shared protocol knowledge (driver kits), never another driver
  // or the rest of the core.
  { sourceTag: 'type:driver', onlyDependOnLibsWithTags: ['type:port', 'type:driver-kit', 'type:util'] },
  // A kit may build on another kit (android-source reads page sources with ios-source's XML reader and ids).
  { sourceTag: 'type:driver-kit', onlyDependOnLibsWithTags: ['type:driver-kit', 'type:port', 'type:util'], bannedExternalImports: DRIVER_PACKAGES },
  { sourceTag: 'type:sim', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: DRIVER_PACKAGES },
  {
    sourceTag: 'type:runtime',
    onlyDependOnLibsWithTags: ['type:core', 'type:port', 'type:driver', 'type:driver-kit', 'type:sim', 'type:util'],
    bannedExternalImports: DRIVER_PACKAGES,
  },
  // A transport sees the catalog (the capability layer), the port's neutral types, other transports and util:
  // never the hub, tasks, perception, the runtime or a driver. The runtime hands it the catalog.
  {
    sourceTag: 'type:transport',
    onlyDependOnLibsWithTags: ['layer:capability', 'type:port', 'type:transport', 'type:util'],
    bannedExternalImports: DRIVER_PACKAGES,
  },
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:transport', 'type:runtime', 'type:sim', 'type:core', 'type:port', 'type:util'],
    bannedExternalImports: DRIVER_PACKAGES,
  },
  // Workspace tooling (benchmarks, architecture checks) may use anything, as a script would.
  {
    sourceTag: 'type:tool',
    onlyDependOnLibsWithTags: [
      'type:app',
      'type:transport',
      'type:runtime',
      'type:core',
      'type:port',
      'type:driver',
      'type:driver-kit',
      'type:sim',
      'type:util',
    ],
  },
];

/** A transport's own specs may build a real hub and perception to serve (test setup, never shipped code). */
const specDepConstraints = depConstraints.map((constraint) =>
  constraint.sourceTag === 'type:transport'
    ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:core'] }
    : constraint,
);

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/node_modules', '**/fixtures/**', '**/bench-results'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    // Tool configs reach the root configs by relative path by design; they are not part of any layer.
    ignores: ['**/eslint.config.mjs', '**/jest.config.js', 'jest.preset.js'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints },
      ],
    },
  },
  {
    // Only the transport rule differs for specs (see specDepConstraints).
    files: ['**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: specDepConstraints },
      ],
    },
  },
  // Nx can only ban a package that is installed; this catches the import itself, installed or not.
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: ['libs/drivers/wda/**', 'libs/drivers/appium/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DRIVER_PACKAGES.map((name) => ({ name, message: 'Only the driver layer may use driver packages.' })),
          patterns: [{ group: DRIVER_PACKAGES.map((name) => `${name}/*`), message: 'Only the driver layer may use driver packages.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
