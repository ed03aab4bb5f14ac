// The TypeScript of src/ and test/ transpiled once per `npm test` run into a directory of its own,
// so that each test file's process loads plain JavaScript.
//
// Why: node:test runs every file in a process of its own, and under tsx each one loaded the app's
// module graph through tsx's module hooks, which Node runs on a thread of their own: ≈ 1.1 s of
// wall time and ≈ 1.6 s of CPU per file on the 2-core CI machine (a file that only imports
// test/helper.ts: 1.7–2.0 s under tsx, 0.75–0.85 s from JavaScript), ≈ 200 processes per `.ci/run`.
// esbuild (the transpiler tsx itself runs) turns each file into the same JavaScript tsx would have
// run; nothing is type-checked here, as under tsx (`npm run typecheck` checks src/ and test/).
//
// The tree keeps src/ and test/ side by side, so relative imports resolve as in the sources; the
// working directory stays the repository, so paths relative to it (openapi.json, bin/lineup.js)
// are unchanged. Files other than TypeScript (the SQL migrations) are copied. A test's child
// processes run this tree's JavaScript too (test/spawn-args.ts).
// Source maps are inline, and Node is started with --enable-source-maps: a failure names the .ts
// file and line.
import { transform } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOTS = ['src', 'test'];

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * Transpiles src/ and test/ under `out` (created afresh) and returns the function that maps a
 * source path (test/x.test.ts) to the file to run (out/test/x.test.js).
 */
export async function buildTests(out) {
  rmSync(out, { recursive: true, force: true });
  // the nearest package.json above a file decides that .js is an ES module; inside node_modules
  // Node does not look past it for the repository's own
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module', private: true }) + '\n');
  const { compilerOptions } = JSON.parse(readFileSync('tsconfig.json', 'utf8'));
  const tsconfigRaw = { compilerOptions: { target: compilerOptions.target, useDefineForClassFields: true } };
  const files = ROOTS.flatMap((root) => walk(root));
  await Promise.all(files.map(async (file) => {
    const target = join(out, file);
    mkdirSync(dirname(target), { recursive: true });
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) {
      copyFileSync(file, target);
      return;
    }
    const { code } = await transform(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node24',
      tsconfigRaw,
      sourcemap: 'inline',
      // the map names the source as seen from the emitted file
      sourcefile: relative(dirname(target), resolve(file)),
    });
    writeFileSync(target.replace(/\.ts$/, '.js'), code);
  }));
  // (a path given relative to the repository or absolute: `npm test -- test/x.test.ts`)
  return (source) => join(out, relative(process.cwd(), resolve(source))).replace(/\.ts$/, '.js');
}
