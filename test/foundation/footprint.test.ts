import test from 'ava';
import { execFileSync } from 'node:child_process';
import { ROOT_DIR } from '../../src/config';

// The TypeScript compiler adds ~140 MB to a process; only a generateDocs build over script
// sources needs it, so the server (HTTP app, MCP, worker and pipeline) must not load it.
test('the server, worker and pipeline modules do not load the TypeScript compiler until a build needs it', (t) => {
  const script = `
    await import('./src/services.ts');
    await import('./src/http/app.ts');
    await import('./src/indexing/pipeline/handler.ts');
    const { createRequire } = await import('node:module');
    const cache = Object.keys(createRequire(import.meta.url).cache);
    const before = cache.filter((k) => k.includes('/node_modules/typescript/'));
    const { generateDocsSnippets } = await import('./src/indexing/codedocs/index.ts');
    const snippets = await generateDocsSnippets([{ path: 'src/a.ts', text: '/** Adds. */\\nexport function add(a: number, b: number) { return a + b; }\\n' }]);
    const after = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/node_modules/typescript/'));
    console.log(JSON.stringify({ modules: cache.length, before: before.length, after: after.length, titles: snippets.map((s) => s.title) }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT_DIR,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}');
  t.true(result.modules > 100, 'the modules were loaded through the CommonJS cache that is inspected');
  t.is(result.before, 0, 'no typescript module before a build needs it');
  t.true(result.after > 0, 'loaded on demand');
  t.deepEqual(result.titles, ['add()']);
});
