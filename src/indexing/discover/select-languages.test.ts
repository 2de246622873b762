import test from 'ava';
import { selectDocFiles } from './select';
import { parseLanguage } from './translations';

const kept = (paths: string[]) => selectDocFiles(paths.map((path) => ({ path, size: 1, isSymlink: false }))).selected;
const reasons = (paths: string[]) =>
  Object.fromEntries(selectDocFiles(paths.map((path) => ({ path, size: 1, isSymlink: false }))).skipped.map((s) => [s.path, s.reason]));

test('language codes, regions and scripts are recognised; English is English', (t) => {
  t.deepEqual(parseLanguage('zh'), { code: 'zh', english: false, strength: 'clear' });
  t.deepEqual(parseLanguage('zh_CN'), { code: 'zh-cn', english: false, strength: 'regional' });
  t.is(parseLanguage('zh-Hant')?.strength, 'regional');
  t.is(parseLanguage('pt-BR')?.strength, 'regional');
  t.is(parseLanguage('es-419')?.strength, 'regional');
  t.is(parseLanguage('id')?.strength, 'ambiguous');
  t.true(parseLanguage('en')?.english);
  t.true(parseLanguage('en-US')?.english);
  for (const notLang of ['api', 'docs', 'es-next', 'de-facto', 'v1', 'zz', 'guide']) t.is(parseLanguage(notLang), undefined, notLang);
});

test('docs/<lang>/ beside docs/en/: English kept, every other language dropped (FastAPI layout)', (t) => {
  const langs = [
    'de',
    'es',
    'fr',
    'hi',
    'ja',
    'ko',
    'pt',
    'ru',
    'tr',
    'uk',
    'zh',
    'zh-hant',
    'em',
    'id',
    'it',
    'az',
    'bn',
    'fa',
    'he',
    'hu',
    'nl',
    'pl',
    'sv',
    'th',
    'vi',
  ];
  const paths = [
    'docs/en/docs/index.md',
    'docs/en/docs/tutorial/first-steps.md',
    ...langs.map((l) => `docs/${l}/docs/index.md`),
    'docs/missing-translation.md',
  ];
  t.deepEqual(kept(paths), ['docs/en/docs/index.md', 'docs/en/docs/tutorial/first-steps.md', 'docs/missing-translation.md']);
  t.is(reasons(paths)['docs/zh-hant/docs/index.md'], 'translation (zh-hant)');
  t.is(reasons(paths)['docs/it/docs/index.md'], 'translation (it)', 'ambiguous codes count beside an en folder');
});

test('language folders deep in a site beside an en folder (expressjs.com layout)', (t) => {
  const paths = [
    'src/content/docs/en/5x/guide/routing.mdx',
    'src/content/docs/fr/5x/guide/routing.mdx',
    'src/content/docs/pt-br/5x/guide/routing.mdx',
    'src/content/docs/zh-tw/5x/guide/routing.mdx',
    'src/content/pages/en/support.mdx',
    'src/content/pages/ja/support.md',
  ];
  t.deepEqual(kept(paths), ['src/content/docs/en/5x/guide/routing.mdx', 'src/content/pages/en/support.mdx']);
});

test('without an en folder: clear codes under docs/ or at the top are translations, ambiguous ones are not', (t) => {
  const paths = [
    'docs/guide.md',
    'docs/ja/guide.md',
    'docs/ko/guide.md',
    'ru/index.md',
    'de/readme.md',
    'docs/id/identifiers.md',
    'docs/it/items.md',
    'docs/cs/csharp.md',
    'src/api/fr/x.md',
  ];
  t.deepEqual(kept(paths), ['docs/guide.md', 'docs/id/identifiers.md', 'docs/it/items.md', 'docs/cs/csharp.md', 'src/api/fr/x.md']);
});

test('regional codes are translations anywhere (Context7 excludes zh-cn, zh-tw, …)', (t) => {
  t.deepEqual(kept(['site/content/zh-cn/a.md', 'guide/pt_BR/b.md', 'guide/sr-Latn/c.md', 'guide/en-GB/d.md']), ['guide/en-GB/d.md']);
});

test('i18n/, locales/ and translations/ containers', (t) => {
  const paths = [
    'i18n/fr/docusaurus-plugin-content-docs/current/intro.md',
    'i18n/zh-Hans/x.md',
    'i18n/en/y.md',
    'website/i18n/ko/z.md',
    'locales/es/a.md',
    'translations/README.md',
    'translations/fr.md',
    'translations/en/b.md',
    'l10n/c.md',
    'docs/i18n.md',
    'docs/guide/i18n/overview.md',
  ];
  t.deepEqual(kept(paths), ['i18n/en/y.md', 'translations/en/b.md', 'docs/i18n.md', 'docs/guide/i18n/overview.md']);
});

test('language-suffixed files: README.zh-CN.md, README_KO.md, page.fr.md', (t) => {
  const paths = [
    'README.md',
    'README.zh-CN.md',
    'README_KO.md',
    'README-ja.md',
    'README.en.md',
    'docs/README.pt-BR.md',
    'docs/README.id-ID.md',
    'docs/index.md',
    'docs/index.fr.md',
    'docs/setup.de.md',
  ];
  t.deepEqual(kept(paths), ['README.md', 'README.en.md', 'docs/index.md']);
});

test('suffixes that are words or ambiguous codes without an untranslated twin stay', (t) => {
  const paths = ['docs/api-de.md', 'docs/vite.config.md', 'docs/use.it.md', 'docs/notes.no.md', 'docs/notes.md', 'docs/page.it.md', 'docs/page.md'];
  t.deepEqual(kept(paths), ['docs/api-de.md', 'docs/vite.config.md', 'docs/use.it.md', 'docs/notes.md', 'docs/page.md']);
});

test('country codes docs use for languages: page.cn.mdx, README-jp.adoc, docs/kr/', (t) => {
  const paths = ['docs/page.mdx', 'docs/page.cn.mdx', 'README.adoc', 'README-jp.adoc', 'docs/kr/intro.md', 'docs/intro.md', 'docs/se.md', 'docs/gr/x.md'];
  t.deepEqual(kept(paths).sort(), ['README.adoc', 'docs/gr/x.md', 'docs/intro.md', 'docs/page.mdx', 'docs/se.md']);
  t.is(reasons(paths)['docs/page.cn.mdx'], 'translation (cn)');
  t.is(reasons(paths)['README-jp.adoc'], 'translation (jp)');
});
