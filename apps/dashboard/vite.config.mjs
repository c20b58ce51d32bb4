import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Static files for `apex serve`: index.html at `/`, hashed assets under `/ui/assets/` (the REST server's
 * dashboard prefix). Nothing inline (the page's CSP allows only 'self'), nothing from another origin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  logLevel: 'warn',
});
