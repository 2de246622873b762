/**
 * Where the code that runs in another process or thread starts. Built (`npm run build`),
 * every entry point is a bundle side by side in dist/ (scripts/run/build.mjs names them) and
 * runs as it is; as TypeScript (tsx: development, tests), a thread starts from a small .mjs
 * that registers tsx first, since a worker thread does not inherit the loader.
 */

/** True in dist/*.js, false in src/*.ts run through tsx. */
export const COMPILED = import.meta.url.endsWith('.js');

/** An entry point's file URL: `name` in dist/, or `source` (relative to src/) under tsx. */
export function entryPoint(name: 'job-process' | 'embed-thread' | 'probe-thread' | 'code-thread', source: string): URL {
  return COMPILED ? new URL(`./${name}.js`, import.meta.url) : new URL(`./${source}`, import.meta.url);
}
