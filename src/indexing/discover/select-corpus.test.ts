import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { selectDocFiles, type RepoFileInfo } from './select';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/repos/', import.meta.url));
const maybe = fs.existsSync(CORPUS) ? test : test.skip;

/** The real file list of a corpus repository version (the corpus stores a repository's doc-like files). */
function listFiles(repo: string): RepoFileInfo[] {
  const root = path.join(CORPUS, repo);
  const out: RepoFileInfo[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else out.push({ path: r, size: fs.lstatSync(path.join(dir, e.name)).size, isSymlink: e.isSymbolicLink() });
    }
  };
  walk(root, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

maybe('FastAPI: only the English docs are kept', (t) => {
  const files = listFiles('fastapi__fastapi/0.141.1');
  const { selected } = selectDocFiles(files, { versionHint: '0.141.1' });
  const english = files.filter((f) => f.path.startsWith('docs/en/docs/'));
  t.true(english.length > 100);
  t.true(selected.includes('docs/en/docs/index.md'));
  t.true(selected.includes('docs/en/docs/tutorial/first-steps.md'));
  t.true(selected.includes('README.md'));
  for (const lang of ['de', 'es', 'fr', 'hi', 'ja', 'ko', 'pt', 'ru', 'tr', 'uk', 'zh', 'zh-hant']) {
    t.false(
      selected.some((p) => p.startsWith(`docs/${lang}/`)),
      lang,
    );
  }
  t.true(
    selected.every((p) => p.startsWith('docs/en/') || !p.startsWith('docs/') || p === 'docs/missing-translation.md'),
    'no other language folder',
  );
  t.false(
    selected.some((p) => p.includes('/tests/')),
    'translation-fixer test data is not documentation',
  );
  // The English docs minus their release notes and contributing page.
  t.true(selected.filter((p) => p.startsWith('docs/en/docs/')).length >= english.length - 3);
});

maybe('expressjs.com: only English, and only the current (5.x) docs', (t) => {
  const { selected } = selectDocFiles(listFiles('expressjs__expressjs.com/main'));
  t.true(selected.includes('src/content/docs/en/5x/guide/routing.mdx'));
  t.true(selected.includes('src/content/api/5x/api.mdx'));
  t.true(selected.includes('src/content/pages/en/support.mdx'));
  for (const lang of ['de', 'es', 'fr', 'it', 'ja', 'ko', 'pt-br', 'zh-cn', 'zh-tw']) {
    t.false(
      selected.some((p) => p.startsWith(`src/content/docs/${lang}/`) || p.startsWith(`src/content/pages/${lang}/`)),
      lang,
    );
  }
  t.false(
    selected.some((p) => /\/(3x|4x)\//.test(p)),
    'older versions are filtered',
  );
  const all = selectDocFiles(listFiles('expressjs__expressjs.com/main'), { skipVersionFiltering: true }).selected;
  t.true(all.includes('src/content/docs/en/4x/guide/routing.mdx'));
  t.false(
    all.some((p) => p.startsWith('src/content/docs/fr/')),
    'translations stay out without version filtering',
  );
});

maybe('zod 4: the v3 docs beside the current docs are another version', (t) => {
  const { selected } = selectDocFiles(listFiles('colinhacks__zod/4.4.3'), { versionHint: 'v4.4.3' });
  t.true(selected.some((p) => p.startsWith('packages/docs/content/')));
  t.false(selected.some((p) => p.startsWith('packages/docs-v3/')));
});
