/**
 * The content check through a Git build: a page whose prose is not English is left out
 * even when its name does not say so (its English sibling kept, the skip logged), and a
 * library written in another language keeps its pages.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, servedSnippets } from '../helpers';

let git: GitServer;
let app: TestApp;
let key: string;

const EN =
  '# Stores\n\nA store holds state and business logic that is not bound to your component tree. Use one when many components share the data.\n\n```js\nconst useCounter = defineStore("counter", { state: () => ({ count: 0 }) });\n```\n';
const ZH =
  '# 定义 Store\n\nStore 是一个保存状态和业务逻辑的实体，它并不与你的组件树绑定。换句话说，它承载着全局状态。它有点像一个永远存在的组件，每个组件都可以读取和写入它。\n\n```js\nconst useCounter = defineStore("counter", { state: () => ({ count: 0 }) });\n```\n';
const LONG = `# Plugins\n\n${'Plugins extend every store with new properties and actions. A plugin is a function that receives the context and may return an object to add to the store. '.repeat(4)}\n`;
const ES =
  '# Stores\n\nUn store es una entidad que contiene el estado y la lógica de negocio que no está vinculada a tu árbol de componentes. En otras palabras, contiene el estado global de la aplicación y se puede usar en todas las páginas.\n';

test.before(async () => {
  git = await startGitServer();
  const variant = (page: string, n: number) => page.replace(/counter/g, `counter${n}`).replace(/count: 0/g, `count: ${n}`);
  createRepo(git.root, 'acme/store', [
    {
      files: {
        'docs/stores.md': EN,
        'docs/dingyi/stores.md': variant(ZH, 1),
        'docs/tiendas.md': ES,
        'docs/more.md': variant(EN, 2),
        'docs/plugins.md': LONG,
        'print/plugins.md': LONG.replace('Plugins extend', 'Plugins can extend'),
        'docs/old-plugins.md': '# Plugins\n\nThis page has moved to [Plugins](./plugins.md).\n',
      },
    },
  ]);
  createRepo(git.root, 'acme/zhonly', [{ files: { 'docs/a.md': ZH, 'docs/b.md': variant(ZH, 3), 'docs/c.md': variant(ZH, 4) } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/` });
  key = await adminKey(app);
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

async function paths(libraryId: string): Promise<string[]> {
  const docs = await servedSnippets(app, libraryId);
  return [...new Set(docs.map((d) => d.path))].sort();
}

test.serial('pages left out by their content: other languages, redirect stubs, copies in other folders (all logged)', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/store` });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(await paths('/acme/store'), ['docs/more.md', 'docs/plugins.md', 'docs/stores.md']);
  const jobs = await app.services.jobs.list({ libraryId: '/acme/store', limit: 1 });
  const log = jobs[0].log.map((l) => l.message);
  t.true(log.includes('skipped docs/dingyi/stores.md: not English (zh/ja/ko) by its content'), log.join('\n'));
  t.true(log.includes('skipped docs/tiendas.md: not English (es) by its content'), log.join('\n'));
  t.true(log.includes('skipped docs/old-plugins.md: redirect stub'), log.join('\n'));
  t.true(log.includes('skipped print/plugins.md: a copy of docs/plugins.md'), log.join('\n'));
});

test.serial('a library written in another language keeps its pages', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/zhonly` });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(await paths('/acme/zhonly'), ['docs/a.md', 'docs/b.md', 'docs/c.md']);
});
