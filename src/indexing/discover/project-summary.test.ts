import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFromHomePage, describeProject } from './project-summary';
import { describeFromReadme } from './readme';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/repos/', import.meta.url));
const maybe = fs.existsSync(CORPUS) ? test : test.skip;

/** describeProject over an in-memory repository. */
const describe = (files: Record<string, string>) => describeProject({ paths: Object.keys(files), read: async (p) => files[p] });

// The shape of react.dev's README: a note about the repository, then getting started and
// contributing sections whose prose is about working on the docs, not about React.
const DOCS_SITE_README = `# acme.dev

This repo contains the source code and documentation powering [acme.dev](https://acme.dev/).

## Getting started

### Prerequisites

1. Git
1. Node: any version starting with v16.8.0 or greater

## Contributing

### Guidelines

The documentation is divided into several sections with a different tone and purpose. If you plan to write more than a few sentences, read the contributing guidelines first.
`;

test('a contributing guide or a getting-started section is never the description', (t) => {
  t.deepEqual(describeFromReadme(DOCS_SITE_README), { title: 'acme.dev' });
  t.is(
    describeFromReadme('# vuejs.org\n\n## Contributing\n\nThis site is built with VitePress and depends on a theme. Site content is written in Markdown.\n')
      .description,
    undefined,
  );
  t.is(describeFromReadme('# Acme\n\n## Development\n\nRun the tests with make test before sending a pull request please.\n').description, undefined);
});

test('a summary in the lead, or in a section that introduces the project, is the description', (t) => {
  t.is(
    describeFromReadme('# Acme\n\n[![ci](b.svg)](x)\n\nAcme parses widgets from plain text files quickly.\n\n## Install\n\nnpm i acme\n').description,
    'Acme parses widgets from plain text files quickly.',
  );
  t.is(
    describeFromReadme(
      '# Acme\n\n## Installation\n\nRun npm install acme in your project folder now.\n\n## About\n\nAcme renders charts from plain data files in the browser.\n',
    ).description,
    'Acme renders charts from plain data files in the browser.',
  );
  t.is(
    describeFromReadme('# Acme\n\n## What is Acme?\n\nAcme is a queue for background jobs with retries.\n').description,
    'Acme is a queue for background jobs with retries.',
  );
});

test('an HTML tagline with a link in it is prose; a banner of links or a logo is not; a byline after <br> is dropped', (t) => {
  t.is(
    describeFromReadme('<p align="center">\n  The official docs for <a href="https://acme.dev">Acme</a>, the small, fast widget framework for Node.js.\n</p>\n')
      .description,
    'The official docs for Acme, the small, fast widget framework for Node.js.',
  );
  t.is(
    describeFromReadme(
      '<p align="center">\n  <a href="https://a">Website</a> · <a href="https://b">Report issue</a> · <a href="c">Contributing guide</a>\n</p>\n',
    ).description,
    undefined,
  );
  t.is(
    describeFromReadme(
      '<p align="center">\n  TypeScript-first widget validation with static types\n  <br/>\n  by <a href="https://x.com/someone">@someone</a>\n</p>\n',
    ).description,
    'TypeScript-first widget validation with static types',
  );
  t.is(
    describeFromReadme('<h3 align="center">Gold sponsors</h3>\n\n<p align="center">Acme is a tiny router for edge runtimes and workers.</p>\n').description,
    'Acme is a tiny router for edge runtimes and workers.',
    'an HTML heading in a banner does not end the lead',
  );
});

test('a README that only names another README is followed; the docs home page is the fallback', async (t) => {
  t.deepEqual(
    await describe({ 'README.md': 'packages/acme/README.md', 'packages/acme/README.md': '# Acme\n\nAcme validates widgets with static type inference.\n' }),
    { title: 'Acme', description: 'Acme validates widgets with static type inference.' },
  );
  t.deepEqual(await describe({ 'README.md': '../../etc/passwd' }), {});
  t.deepEqual(
    await describe({
      'README.md': DOCS_SITE_README,
      'src/index.md': '---\ntitle: Acme - The Progressive Widget Framework\n---\n\n<Home />\n',
      'src/guide/index.md': '---\ndescription: A guide page, not the home page\n---\n',
    }),
    { title: 'acme.dev', description: 'The Progressive Widget Framework' },
  );
  t.deepEqual(
    await describe({
      'README.md': DOCS_SITE_README,
      'docs/index.mdx': '---\ntitle: Intro\ndescription: Acme - widget validation with static type inference\n---\n',
    }),
    { title: 'acme.dev', description: 'Acme - widget validation with static type inference' },
  );
  t.deepEqual(
    await describe({ 'README.md': DOCS_SITE_README, 'src/content/index.md': '---\ntitle: React\n---\n' }),
    { title: 'acme.dev' },
    'no summary at all: no description',
  );
  t.deepEqual(describeFromHomePage('---\nhero:\n  name: Acme\n  tagline: Fast widgets for every page\n---\n'), { description: 'Fast widgets for every page' });
  t.deepEqual(describeFromHomePage('---\ntitle: [unclosed\n---\n'), {}, 'bad YAML gives nothing');
});

/** The same function the build uses, over a corpus folder (its files are the repository's docs). */
function corpusSummary(folder: string) {
  const root = path.join(CORPUS, folder);
  const paths: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else if (/\.(md|mdx|rst|txt|markdown)$/i.test(e.name)) paths.push(child);
    }
  };
  walk('');
  return describeProject({ paths, read: async (p) => (fs.existsSync(path.join(root, p)) ? fs.readFileSync(path.join(root, p), 'utf8') : undefined) });
}

maybe('the corpus: docs sites describe their library, not how to contribute to the site', async (t) => {
  const reactDev = await corpusSummary('reactjs__react.dev/main');
  t.notRegex(reactDev.description ?? '', /contribut|documentation is divided/i, 'react.dev: not its contributing guidelines');
  t.deepEqual(reactDev, { title: 'react.dev' });
  t.is((await corpusSummary('vuejs__docs/main')).description, 'The Progressive JavaScript Framework');
  t.is(
    (await corpusSummary('expressjs__expressjs.com/main')).description,
    'The official website and documentation for Express.js, the fast, unopinionated, minimalist web framework for Node.js.',
  );
  t.deepEqual(await corpusSummary('colinhacks__zod/4.4.3'), { title: 'Zod', description: 'TypeScript-first schema validation with static type inference' });
  // Libraries whose READMEs already led with a summary keep it.
  t.regex((await corpusSummary('koajs__koa/3.2.0')).description ?? '', /^Expressive HTTP middleware framework/);
  t.regex((await corpusSummary('fastapi__fastapi/0.141.1')).description ?? '', /^FastAPI is a modern, fast/);
  t.is((await corpusSummary('vitejs__vite/8.2.2')).description, 'Next Generation Frontend Tooling');
  t.is((await corpusSummary('axios__axios/main')).description, 'Promise based HTTP client for the browser and node.js');
});
