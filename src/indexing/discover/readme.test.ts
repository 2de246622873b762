import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { describeFromReadme, README_DESCRIPTION_MAX } from './readme';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/repos/', import.meta.url));
const maybe = fs.existsSync(CORPUS) ? test : test.skip;

test('the first H1 and the first paragraph', (t) => {
  t.deepEqual(describeFromReadme('# Flask\n\nFlask is a lightweight [WSGI] web application framework.\n\n## Install\n\nMore text here that is long.'), {
    title: 'Flask',
    description: 'Flask is a lightweight WSGI web application framework.',
  });
});

test('badges, images, HTML banners and link-only lines are skipped', (t) => {
  const text = [
    '<p align="center"><a href="https://x.dev"><img src="logo.png" alt="X"></a></p>',
    '',
    '[![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x) [![ci][ci-badge]][ci-url]',
    '',
    '![screenshot](shot.png)',
    '',
    '# X ⚡',
    '',
    '**Documentation**: [https://x.dev](https://x.dev)',
    '',
    '- Fast',
    '- Small',
    '',
    '| a | b |',
    '',
    'X is a tool for **building** things with `plain` functions. It is small.',
    '',
    '[ci-url]: https://ci.example.com',
  ].join('\n');
  t.deepEqual(describeFromReadme(text), { title: 'X ⚡', description: 'X is a tool for building things with plain functions. It is small.' });
});

test('a simple HTML paragraph is prose; one with links or images is not', (t) => {
  t.is(
    describeFromReadme('<p align="center">Promise based HTTP client for the browser and node.js</p>').description,
    'Promise based HTTP client for the browser and node.js',
  );
  t.is(describeFromReadme('<p><a href="x">Website</a> • <a href="y">Documentation and guides</a></p>').description, undefined);
});

test('setext, reST and HTML titles', (t) => {
  t.is(describeFromReadme('Requests\n========\n\nRequests is a simple, yet elegant, HTTP library.').title, 'Requests');
  t.is(describeFromReadme('=====\nClick\n=====\n\nClick is a Python package for command lines.').title, 'Click');
  t.is(describeFromReadme('<h1 align="center">Koa</h1>\n\nExpressive middleware for node.js servers.').title, 'Koa');
  t.is(describeFromReadme('Intro\n-----\n\nSome prose that is long enough.').title, undefined, 'a --- underline is level 2');
});

test('reST substitutions and directives are not prose', (t) => {
  const text =
    'SQLAlchemy\n==========\n\n|PyPI| |Python|\n\n.. |PyPI| image:: https://img.shields.io/pypi/v/sqlalchemy\n    :target: https://pypi.org\n\nThe Python SQL Toolkit and Object Relational Mapper\n';
  t.deepEqual(describeFromReadme(text), { title: 'SQLAlchemy', description: 'The Python SQL Toolkit and Object Relational Mapper' });
});

test('code fences, front matter and comments are skipped', (t) => {
  const text =
    '---\ntitle: ignored\n---\n<!-- a comment that is long enough to look like prose -->\n```\nnpm install a-package-with-long-name\n```\n\nThe real description of this project.';
  t.deepEqual(describeFromReadme(text), { description: 'The real description of this project.' });
});

test('long descriptions are cut near 300 characters at a sentence', (t) => {
  const sentence = 'This library does one useful thing very well and explains it at length. ';
  const d = describeFromReadme(sentence.repeat(10)).description ?? '';
  t.true(d.length <= README_DESCRIPTION_MAX);
  t.true(d.length > 150);
  t.true(d.endsWith('.'));
  const words = describeFromReadme('word '.repeat(200)).description ?? '';
  t.true(words.length <= README_DESCRIPTION_MAX && words.endsWith('…'));
});

test('nothing usable gives nothing', (t) => {
  t.deepEqual(describeFromReadme(''), {});
  t.deepEqual(describeFromReadme('packages/zod/README.md'), {});
  t.deepEqual(describeFromReadme('[![badge](b.svg)](x)'), {});
});

maybe('real READMEs of the corpus', (t) => {
  const read = (p: string) => describeFromReadme(fs.readFileSync(CORPUS + p, 'utf8'));
  t.deepEqual(read('pallets__flask/3.1.3/README.md').title, 'Flask');
  t.regex(read('fastapi__fastapi/0.141.1/README.md').description ?? '', /^FastAPI is a modern, fast/);
  t.is(read('axios__axios/main/README.md').description, 'Promise based HTTP client for the browser and node.js');
  t.regex(read('koajs__koa/3.2.0/Readme.md').description ?? '', /^Expressive HTTP middleware framework/);
  t.deepEqual(read('sqlalchemy__sqlalchemy/2.0.52/README.rst'), { title: 'SQLAlchemy', description: 'The Python SQL Toolkit and Object Relational Mapper' });
  t.is(read('psf__requests/2.34.2/README.md').title, 'Requests');
});

test('paragraphs about the repository and greetings are not descriptions', (t) => {
  t.is(
    describeFromReadme('# Site\n\nThis repo contains the source code of the Acme website.\n\nAcme renders charts from plain data files in the browser.\n')
      .description,
    'Acme renders charts from plain data files in the browser.',
  );
  t.is(
    describeFromReadme('# Docs\n\nThis is the repository for the Acme documentation website.\n\nAcme is a queue for background jobs with retries.\n')
      .description,
    'Acme is a queue for background jobs with retries.',
  );
  t.is(
    describeFromReadme('# Acme\n\nHi there 👋\n\nAcme is a tiny HTTP router for edge runtimes.\n').description,
    'Acme is a tiny HTTP router for edge runtimes.',
  );
  t.is(
    describeFromReadme('# Acme\n\nThe repository pattern for TypeScript: typed queries over any store.\n').description,
    'The repository pattern for TypeScript: typed queries over any store.',
  );
});
