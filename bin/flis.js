#!/usr/bin/env node
// The `flis` command. The sources are TypeScript run through tsx, so there is
// no build step between `npm ci` and `npx flis run`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
