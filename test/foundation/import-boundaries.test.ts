/**
 * The import rules of docs/ARCHITECTURE.md ("Boundaries"), checked on the source: a scan of
 * every `import … from` in src/. Known exceptions are listed by file; an exception that is no
 * longer one fails too, so the lists only shrink.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../../src/config';

const SRC = path.join(ROOT_DIR, 'src');

function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'public' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Each file's imports, resolved to paths relative to src/ (packages stay as named). */
function imports(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of sources()) {
    const rel = path.relative(SRC, file);
    const text = fs.readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
    out.set(rel, specs.map((s) => (s.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), s)) : s)));
  }
  return out;
}

const all = imports();
const offenders = (rule: (file: string, target: string) => boolean) =>
  [...all.entries()].filter(([file, targets]) => targets.some((t) => rule(file, t))).map(([file]) => file).sort();

test('the scan sees the code (it would pass vacuously otherwise)', (t) => {
  t.true(all.size > 100);
  t.true(all.get('http/app.ts')?.includes('error-funnel'));
});

test('MCP does not import the HTTP layer, except its own HTTP route and that route\'s schema', (t) => {
  const adapter = new Set(['mcp/http-route.ts', 'mcp/http-schema.ts']);
  t.deepEqual(offenders((file, target) => file.startsWith('mcp/') && !adapter.has(file) && target.startsWith('http/')), []);
});

test('use cases and stores do not import the HTTP layer', (t) => {
  const found = offenders((file, target) => /^(catalog|domain|retrieval|search|indexing|store|auth|embedding|code)\//.test(file) && target.startsWith('http/'));
  t.deepEqual(found, []);
});

test('only store/ touches mongoose (services.ts wires the models)', (t) => {
  // Known, to move into store/ repositories: the auth composition (its services take models).
  const known = ['auth/compose.ts'];
  const usesModels = new Set(
    [...all.keys()].filter((file) => !file.startsWith('store/') && file !== 'services.ts' && /\.models\.|from 'mongoose'/.test(fs.readFileSync(path.join(SRC, file), 'utf8'))),
  );
  t.deepEqual([...usesModels].sort(), known);
});

test('errors and their funnel do not depend on HTTP', (t) => {
  t.false(all.get('errors.ts')?.some((x) => x.startsWith('http/')));
  t.false(all.get('error-funnel.ts')?.some((x) => x.startsWith('http/')));
});

test('the domain layer imports nothing above it; store/ imports neither the catalogue nor indexing', (t) => {
  const domain = offenders((file, target) => file.startsWith('domain/') && /^(store|indexing|catalog|search|retrieval|http|mcp|auth|embedding)\//.test(target));
  t.deepEqual(domain, []);
  // Known, to move with the manifest's figures: the manifest model's types of a build's figures and page checks.
  const store = offenders((file, target) => file.startsWith('store/') && /^(catalog|indexing)\//.test(target));
  t.deepEqual(store, ['store/models/manifest.ts']);
});
