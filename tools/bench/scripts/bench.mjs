#!/usr/bin/env node
// `npm run bench`: bundles the bench (src/main.ts with every @apex library it runs) as the package is bundled
// (apps/cli/scripts/apex-bundle.mjs) into dist/bench/, then runs it with this command's arguments. Its figures are
// then those of the code `npm start` and the package run: TypeScript run through tsx keeps every closure's name
// with a call (`__name`) and reads every import through a getter, a cost on Apex's side of every ratio alone.
// `npm run bench:source` runs the sources through tsx instead.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apexBundleOptions } from '@apex/cli/bundle-options';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const outfile = join(root, 'dist', 'bench', 'bench.js');

/**
 * Each source file keeps its own directory as `__dirname`: the bench and the libraries find files by it (the pixel
 * and YAML workers, the PostgreSQL server script, the repository root, bench-results/, the CLI the stdio arm
 * starts), as when run from source.
 */
const ownDirname = {
  name: 'own-dirname',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.split(/[\\/]/).includes('node_modules')) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!/\b__dirname\b/.test(text)) return undefined;
      return { contents: text.replace(/\b__dirname\b/g, JSON.stringify(dirname(args.path))), loader: 'ts' };
    });
  },
};

await build({
  ...apexBundleOptions({ plugins: [ownDirname] }),
  entryPoints: [join(root, 'tools', 'bench', 'src', 'main.ts')],
  outfile,
  define: { 'process.env.APEX_BENCH_BUILD': JSON.stringify('bundled') },
});
createRequire(import.meta.url)(outfile);
