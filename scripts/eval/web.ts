/**
 * `npx tsx scripts/eval/web.ts --library /encode/httpx --url http://127.0.0.1:3999 [--api-key smk_...]`
 *
 * Retrieval on a library indexed from its BUILT WEBSITE vs from Git, with the dev eval:
 * 1. builds the library's corpus docs (../shared/corpus, the latest version) with MkDocs
 *    Material (cached, scripts/install/sitegen/build-site.ts) and serves the site on loopback;
 * 2. adds it to the running server with `POST /v2/add/website` (the server needs
 *    WEB_ALLOWED_HOSTS=127.0.0.1 to reach it) and waits for the crawl and build;
 * 3. writes two datasets under .eval/: the library's dev.yaml questions for that version
 *    as they are (Git copy, which `npm run load -- ../shared/corpus --only <lib>` adds) and
 *    the same questions with the website's library id and qrel paths mapped from the
 *    repository paths to the site's (`docs/a/b.md` → `a/b.html`);
 * 4. runs `scripts/eval/retrieval.ts` on both and prints where the two reports are.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';
import { buildSite } from '../install/sitegen/build-site';
import { sitegenCache } from '../install/sitegen/generators.mjs';
import { readManifest } from './load-corpus';
import { startWebSite } from '../../test/web-site';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHARED = path.resolve(ROOT, '..', 'shared');

const { values } = parseArgs({
  options: { library: { type: 'string' }, url: { type: 'string', default: 'http://127.0.0.1:3000' }, 'api-key': { type: 'string' } },
});
if (!values.library) throw new Error('usage: npx tsx scripts/eval/web.ts --library /encode/httpx --url http://127.0.0.1:3999 [--api-key smk_...]');
const library = values.library;
const corpus = path.join(SHARED, 'corpus');
if (!fs.existsSync(corpus)) {
  console.error(`[web-eval] ${corpus} is absent: nothing to compare`);
  process.exit(0);
}

interface Entry {
  library: string;
  version?: string;
  query: string;
  intent: string;
  qrels: { path: string; grade: number }[];
}

const rows = readManifest(corpus).filter((r) => r.library === library);
if (rows.length === 0) throw new Error(`${library} is not in ${corpus}/MANIFEST.tsv`);
const version = rows[rows.length - 1].version;
const repoDir = path.join(corpus, 'repos', library.slice(1).replace('/', '__'), version);
const docsDir = path.join(repoDir, 'docs');

// 1. The MkDocs project: the repository's docs/ as they are, a stock Material configuration.
const input = path.join(sitegenCache(), 'inputs', `mkdocs-${library.slice(1).replace('/', '__')}-${version}`);
fs.rmSync(input, { recursive: true, force: true });
fs.mkdirSync(input, { recursive: true });
fs.cpSync(docsDir, path.join(input, 'docs'), { recursive: true });
if (!fs.existsSync(path.join(input, 'docs', 'index.md'))) {
  const readme = fs.readdirSync(repoDir).find((f) => /^readme\.md$/i.test(f));
  fs.writeFileSync(path.join(input, 'docs', 'index.md'), readme ? fs.readFileSync(path.join(repoDir, readme)) : `# ${library}\n`);
}
fs.writeFileSync(
  path.join(input, 'mkdocs.yml'),
  `site_name: "${library}"\nuse_directory_urls: false\ntheme:\n  name: material\nmarkdown_extensions:\n  - admonition\n  - tables\n  - toc:\n      permalink: true\n  - pymdownx.highlight:\n      pygments_lang_class: true\n  - pymdownx.superfences\n  - pymdownx.tabbed:\n      alternate_style: true\n  - pymdownx.details\n`,
);
const started = Date.now();
const { dir, cached } = buildSite('mkdocs', input);
console.error(`[web-eval] site ${cached ? 'reused' : 'built'}: ${dir} (${Date.now() - started} ms)`);

// 2. Serve it and add it.
const site = await startWebSite({ root: dir });
const siteUrl = `http://127.0.0.1:${site.port}/`;
const headers: Record<string, string> = { 'content-type': 'application/json', ...(values['api-key'] ? { authorization: `Bearer ${values['api-key']}` } : {}) };
const addStarted = Date.now();
const res = await fetch(`${values.url}/v2/add/website`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ url: siteUrl, scope: 'hostname', maxPages: 2000, maxDepth: 10 }),
});
const answer = (await res.json()) as Record<string, unknown>;
await site.close();
if (!res.ok) throw new Error(`add/website answered ${res.status}: ${JSON.stringify(answer)}`);
const webLibrary = String(answer.libraryName ?? answer.libraryId ?? `/websites/127.0.0.1-${site.port}`);
console.error(`[web-eval] added ${webLibrary} in ${((Date.now() - addStarted) / 1000).toFixed(1)} s: ${JSON.stringify(answer).slice(0, 400)}`);

// 3. The two datasets (questions of this version only; other versions are not on the site).
const dev = yaml.load(fs.readFileSync(path.join(SHARED, 'eval', 'dev.yaml'), 'utf8')) as { entries: Entry[] };
const entries = dev.entries.filter((e) => e.library === library && (!e.version || e.version === version));
const toSite = (p: string) => p.replace(/^docs\//, '').replace(/\.md$/, '.html');
const out = path.join(ROOT, '.eval');
fs.mkdirSync(out, { recursive: true });
const slug = library.slice(1).replace('/', '__');
const gitSet = path.join(out, `${slug}-git.yaml`);
const webSet = path.join(out, `${slug}-website.yaml`);
fs.writeFileSync(gitSet, yaml.dump({ entries }));
fs.writeFileSync(
  webSet,
  yaml.dump({ entries: entries.map(({ version: _v, ...e }) => ({ ...e, library: webLibrary, qrels: e.qrels.map((q) => ({ ...q, path: toSite(q.path) })) })) }),
);

// 4. Both evals.
for (const [name, set] of [
  ['git', gitSet],
  ['website', webSet],
] as const) {
  console.error(`[web-eval] eval on the ${name} copy (${entries.length} questions)`);
  execFileSync(
    process.execPath,
    [
      '--import=tsx',
      path.join(ROOT, 'scripts', 'eval', 'retrieval.ts'),
      set,
      '--url',
      values.url,
      '--out',
      path.join(out, `${slug}-${name}.json`),
      ...(values['api-key'] ? ['--api-key', values['api-key']] : []),
    ],
    {
      stdio: 'inherit',
      cwd: ROOT,
    },
  );
}
