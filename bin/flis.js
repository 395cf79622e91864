#!/usr/bin/env node
// The `flis` command, one code base run two ways. In a clone: the TypeScript sources through tsx, so there is no
// build step between `npm ci` and `npx flis run`. Installed from the package: the JavaScript that `npm pack` built
// into dist/ (scripts/build.ts); the package holds no sources and needs no tsx. The sources win wherever they are,
// so a clone in which `npm pack` left a dist/ still runs what is edited.
import { existsSync } from 'node:fs';

let main;
if (existsSync(new URL('../cli/main.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
} else {
  ({ main } = await import('../dist/cli/main.js'));
}
process.exitCode = await main(process.argv.slice(2));
