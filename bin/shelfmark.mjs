#!/usr/bin/env node
// The `shelfmark` command: registers tsx (resolved from this package, whatever the cwd)
// and runs the TypeScript entry src/cli.ts in this same process, so stdio stays direct.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import(new URL('../src/cli.ts', import.meta.url).href);
