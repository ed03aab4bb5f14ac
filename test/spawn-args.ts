/**
 * Node's arguments for the child processes tests start with the repository's own code (the CLI,
 * a test's child module), so that a child runs the same code as its test: the JavaScript that
 * `npm test` transpiled (scripts/test-build.mjs), or the TypeScript through tsx when a file is run
 * as `node --import tsx --test FILE`.
 */
import { fileURLToPath } from 'node:url';

/**
 * True when this file runs as the JavaScript `npm test` transpiled (scripts/test-build.mjs), false
 * when it runs as TypeScript under tsx (`node --import tsx --test FILE`).
 */
const TRANSPILED = import.meta.url.endsWith('.js');

/**
 * Node's arguments to run the CLI in a child process, `main(args)` of src/cli.ts as the `lineup`
 * command would, from the same code as this run: its transpiled JavaScript under `npm test`,
 * through tsx otherwise.
 */
export function cliArgs(args: readonly string[]): string[] {
  const cli = new URL(`../src/cli.${TRANSPILED ? 'js' : 'ts'}`, import.meta.url).href;
  return [...loaderArgs(), '-e', `import(${JSON.stringify(cli)}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`];
}

/**
 * Node's arguments to run a test's child module, named without its extension
 * (`./stdin-import.child`, relative to `base`, the test's import.meta.url), as this run's code.
 */
export function childArgs(child: string, base: string): string[] {
  return [...loaderArgs(), fileURLToPath(new URL(`${child}.${TRANSPILED ? 'js' : 'ts'}`, base))];
}

/** tsx when the tests run as TypeScript; nothing when they run transpiled. */
const loaderArgs = (): string[] => (TRANSPILED ? [] : ['--import', 'tsx']);
