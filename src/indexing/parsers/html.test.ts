/**
 * HTML → snippets on markup shaped like the generators' (Docusaurus, Sphinx, Prism, Shiki,
 * Pygments line numbers) and on plain pages (no main element, chrome everywhere). The
 * whole-site tests with real generators are in test/indexing/website-generators.test.ts.
 */
import test from 'ava';
import { htmlToMarkdown, splitHtmlIntoSnippets } from './html';
import { fencedBlocks } from '../../search/format/fence';

const snippets = (html: string) => splitHtmlIntoSnippets({ path: 'docs/page.html', text: html });

test('Docusaurus: article content only, Prism lines with <br>, admonition with title, ARIA tabs with labels', (t) => {
  const html = `<html><head><title>Routing | Site</title></head><body>
<div class="announcementBar_x">We use cookies</div><nav class="navbar"><a href="/">Docs</a></nav>
<aside class="theme-doc-sidebar-container"><a href="/a">Sidebar link</a></aside>
<main><div class="container"><article><nav aria-label="breadcrumbs"><a>Home</a> › <a>Routing</a></nav>
<div class="theme-doc-markdown markdown"><header><h1>Routing</h1></header>
<p>Define routes in a file per page, as the router expects them here.</p>
<div class="language-tsx codeBlockContainer_x theme-code-block"><div class="codeBlockContent_x"><pre class="prism-code language-tsx"><code class="codeBlockLines_x"><span class="token-line"><span class="token keyword">export</span> <span class="token keyword">default</span> <span class="token function">Page</span><br></span><span class="token-line"><span class="token plain">route(</span><span class="token string">'/x'</span>)<br></span></code></pre><div class="buttonGroup_x"><button class="clean-btn">Copy</button></div></div></div>
<div class="theme-admonition theme-admonition-warning admonition_x alert alert--warning"><div class="admonitionHeading_x">Deprecated option</div><div class="admonitionContent_x"><p>The <code>legacy</code> option is removed in version 3 of the router.</p></div></div>
<div class="tabs-container"><ul role="tablist" class="tabs"><li role="tab">yarn</li><li role="tab">npm</li></ul><div class="margin-top--md"><div role="tabpanel"><pre><code class="language-bash">yarn add router</code></pre></div><div role="tabpanel" hidden><pre><code class="language-bash">npm install router</code></pre></div></div></div>
</div><footer class="theme-doc-footer"><a class="theme-edit-this-page" href="#">Edit this page</a></footer>
<nav class="pagination-nav"><a>Previous</a><a>Next</a></nav></article></div></main><footer class="footer">Copyright 2026</footer></body></html>`;
  const md = htmlToMarkdown(html).markdown;
  for (const chrome of ['cookies', 'Sidebar link', 'Home', 'Edit this page', 'Previous', 'Copyright', 'Copy']) t.false(md.includes(chrome), chrome);
  const out = snippets(html);
  t.is(out.length, 1, 'one section: its prose, its example, the admonition and the tabs');
  const [code] = out;
  t.is(code.language, 'tsx');
  t.deepEqual(fencedBlocks(code.content), [
    { language: 'tsx', code: "export default Page\nroute('/x')" },
    { language: 'bash', code: 'yarn add router' },
    { language: 'bash', code: 'npm install router' },
  ]);
  t.deepEqual(code.breadcrumb, ['Routing']);
  t.is(code.pageTitle, 'Routing');
  t.true(code.content.includes('Deprecated option\n\nThe `legacy` option is removed in version 3 of the router.'));
  // Each tab's label introduces its code.
  t.true(code.content.endsWith('yarn:\n\n```bash\nyarn add router\n```\n\nnpm:\n\n```bash\nnpm install router\n```'));
});

test('Sphinx/Pygments: language from the wrapper class, line-number tables dropped, headerlinks dropped, data-lang honoured', (t) => {
  const html = `<div class="document"><div class="body" role="main"><section><h1>Guide<a class="headerlink" href="#g">¶</a></h1>
<p>The example below starts the server on a chosen port number.</p>
<div class="highlight-python notranslate"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td><td class="code"><div class="highlight"><pre><span></span><span class="kn">import</span> <span class="nn">app</span>\n<span class="n">app</span><span class="o">.</span><span class="n">run</span><span class="p">(</span><span class="mi">8000</span><span class="p">)</span>\n</pre></div></td></tr></table></div>
<pre data-lang="toml">[server]\nport = 8000</pre>
<div class="highlight-default notranslate"><div class="highlight"><pre>plain text block</pre></div></div>
</section></div></div><div class="sphinxsidebar">Quick search</div>`;
  const out = snippets(html);
  t.deepEqual(
    out.flatMap((s) => fencedBlocks(s.content)),
    [
      { language: 'python', code: 'import app\napp.run(8000)' },
      { language: 'toml', code: '[server]\nport = 8000' },
      { language: '', code: 'plain text block' },
    ],
  );
  t.deepEqual(
    out.map((s) => [s.kind, s.language, s.description]),
    [['code', 'python', 'The example below starts the server on a chosen port number.']],
  );
  t.false(JSON.stringify(out).includes('¶'));
  t.false(JSON.stringify(out).includes('Quick search'));
});

test('a page without main/article: the densest block wins over navigation and a cookie banner', (t) => {
  const html = `<html><head><title>Config — Tool</title></head><body>
<div id="cookie-consent">We use cookies to improve your experience. Accept all cookies?</div>
<div class="menu"><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a> <a href="/d">Delta</a></div>
<div class="page"><h2>Settings</h2><p>Each setting is read from the environment when the tool starts, once.</p><p>Unknown settings are reported and ignored, so a typo never goes unnoticed.</p>
<table><tr><th>Name</th><th>Default</th></tr><tr><td>PORT</td><td>3000</td></tr></table></div></body></html>`;
  const { markdown } = htmlToMarkdown(html);
  t.true(markdown.startsWith('# Config\n'));
  t.false(markdown.includes('cookies'));
  t.false(markdown.includes('Alpha'));
  t.true(markdown.includes('| Name | Default |\n| --- | --- |\n| PORT | 3000 |'));
});

test('Shiki (VitePress) lines and custom blocks; hostile or empty HTML never throws', (t) => {
  const html = `<div class="vp-doc"><h1>API</h1><div class="custom-block tip"><p class="custom-block-title">TIP</p><p>Prefer the async form in servers, it never blocks the loop.</p></div>
<div class="language-js"><button class="copy"></button><span class="lang">js</span><pre class="shiki"><code><span class="line"><span>a()</span></span>\n<span class="line"><span>b()</span></span></code></pre></div></div>`;
  const md = htmlToMarkdown(html).markdown;
  t.true(md.includes(':::tip[TIP]') || md.includes(':::tip'));
  t.true(md.includes('```js\na()\nb()\n```'));
  t.false(/\njs\n/.test(md));
  for (const bad of ['', '<', '<<<>>>', '<html><body></body></html>', '<pre>'.repeat(500), '\u0000\u0001<div>']) t.notThrows(() => snippets(bad));
});
