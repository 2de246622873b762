#!/usr/bin/env node
// The `shelfmark` command (and the stdio MCP bridge, `shelfmark mcp`): runs the built CLI,
// dist/cli.js, in this same process so stdio stays direct. When dist/ is missing or older
// than src/ (a checkout without `npm run build`), it runs src/cli.ts through tsx instead,
// so the command never runs code older than the source beside it.
import { fileURLToPath } from 'node:url';
import { isStale } from '../scripts/run/build.mjs';

if (!isStale()) {
  await import(new URL('../dist/cli.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import(new URL('../src/cli.ts', import.meta.url).href);
}
