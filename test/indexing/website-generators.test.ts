/**
 * Sites built by real generators (Sphinx + sphinx-design, MkDocs Material, VitePress) from
 * the small docs in fixtures/sitegen/, served by a local HTTP server, crawled and parsed:
 * the snippets must have the page's headings, code with its language, tables, admonitions
 * and tab labels, and none of the generator's chrome. Builds are cached
 * (scripts/install/sitegen/build-site.ts); without the generators (scripts/install/install-site-generators.mjs)
 * these tests skip and say so.
 */
import path from 'node:path';
import test from 'ava';
import { HostAllowList } from '../../src/net/address-policy';
import { createWebFetcher } from '../../src/net/web-fetch';
import { crawl } from '../../src/indexing/sources/website/crawl';
import { parseDocument } from '../../src/indexing/parsers/index';
import type { ParsedSnippet } from '../../src/indexing/types';
import { buildSite, generatorMissing, type Generator } from '../../scripts/install/sitegen/build-site';
import { startWebSite } from '../web-site';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/sitegen');

/** Words that only a generator's chrome says (navigation, footers, edit links, anchors). */
const CHROME = [
  'Edit this page',
  'Released under the MIT License',
  '¶',
  'Powered by',
  'Sphinx',
  'Material for MkDocs',
  'Quick search',
  'Table of contents',
  'Previous',
  'Next',
  'Copyright',
  '©',
  'Skip to content',
  'Made with',
];

async function crawlAndParse(t: { teardown: (f: () => Promise<void> | void) => void }, generator: Generator) {
  const { dir } = buildSite(generator, path.join(FIXTURES, generator));
  const site = await startWebSite({ root: dir });
  const fetcher = createWebFetcher({ lookup: async () => [{ address: '127.0.0.1', family: 4 }], allow: HostAllowList.parse(['docs.test']) });
  t.teardown(() => fetcher.close());
  t.teardown(() => site.close());
  const result = await crawl(
    { url: `http://docs.test:${site.port}/`, scope: 'hostname', maxPages: 50, maxDepth: 5, include: [], exclude: [], delayMs: 0 },
    { fetcher },
  );
  const snippets: ParsedSnippet[] = result.pages.flatMap((p) => parseDocument({ path: p.path, text: p.text }));
  return { result, snippets };
}

const text = (s: ParsedSnippet) => [s.title, s.breadcrumb.join(' > '), s.description, s.content, s.code].join('\n');

const expectations: Record<Generator, { install: string; api: string; tabs: string[]; installLanguage: string; apiLanguage: string }> = {
  sphinx: { install: 'install.html', api: 'api.html', tabs: ['pip', 'conda'], installLanguage: 'bash', apiLanguage: 'python' },
  mkdocs: { install: 'guide/install.html', api: 'api.html', tabs: ['pip', 'conda'], installLanguage: 'bash', apiLanguage: 'python' },
  vitepress: { install: 'guide/install.html', api: 'api.html', tabs: ['npm', 'pnpm'], installLanguage: 'bash', apiLanguage: 'ts' },
};

for (const generator of ['sphinx', 'mkdocs', 'vitepress'] as const) {
  const missing = generatorMissing(generator);
  const run = missing ? test.skip : test;
  const e = expectations[generator];
  run(
    `${generator}: a built site crawls into snippets with headings, languages, tables, admonitions and tab labels, without chrome${missing ? ` (skipped: ${missing})` : ''}`,
    async (t) => {
      const { result, snippets } = await crawlAndParse(t, generator);
      const paths = result.pages.map((p) => p.path);
      t.true(paths.includes(e.install), paths.join(', '));
      t.true(paths.includes(e.api), paths.join(', '));
      t.deepEqual(result.counts.status ?? 0, 0, JSON.stringify(result.skipped.filter((s) => s.reason === 'status')));

      const api = snippets.filter((s) => s.path === e.api);
      const create = api.find((s) => s.kind === 'code' && /spinner\.start\(\)/.test(s.code));
      t.truthy(create, JSON.stringify(api, null, 1));
      t.is(create?.language, e.apiLanguage);
      t.deepEqual(create?.breadcrumb, ['API reference', 'Creating a spinner']);
      t.regex(create?.description ?? '', /frame rate/);
      t.true(
        api.some((s) => /SpinnerStateError/.test(s.content)),
        'the admonition text is kept',
      );
      t.true(
        api.some((s) => /fps.*10.*frames per second/s.test(s.content)),
        'the table is kept',
      );

      const install = snippets.filter((s) => s.path === e.install && s.kind === 'code');
      for (const label of e.tabs) {
        const tab = install.find((s) => s.code.includes(`${label} `) || s.code.includes(`# ${label}`));
        t.truthy(tab, `the ${label} tab's code: ${JSON.stringify(install, null, 1)}`);
        t.is(tab?.language, e.installLanguage);
        // The label is the tab's own text, not the command's first word: it must come from the tab,
        // right before the example it labels (the section's prose and examples in place).
        t.regex(
          tab?.content ?? '',
          new RegExp(`(^|\\n)(# )?${label}:?\\n+\`{3,}[^\\n]*\\n(# ${label}\\n)?[^\`]*\\b${label}\\b`),
          `the ${label} label stays with its code`,
        );
      }
      t.true(snippets.some((s) => s.path === e.install && s.kind === 'code' && s.breadcrumb.at(-1) === 'Checking the install'));

      for (const s of snippets) for (const word of CHROME) t.false(text(s).includes(word), `${s.path}: "${word}" in ${JSON.stringify(text(s))}`);
    },
  );
}
