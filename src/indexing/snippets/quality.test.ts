import test from 'ava';
import { DEFAULT_TRUST_SCORES, fidelityIssues, QUALITY_CHECKS, snippetIssues, type CheckedSnippet } from './quality';
import { benchmarkScore, figuresByFile, qualityReport, totalsFromFigures } from './quality-report';

const good: CheckedSnippet = {
  kind: 'code',
  title: 'Create an app',
  description: 'Create an application and respond to every request.',
  language: 'js',
  code: "const Koa = require('koa');\nconst app = new Koa();\napp.use((ctx) => { ctx.body = 'Hello'; });\napp.listen(3000);",
  content: '',
  path: 'docs/guide.md',
};
const prose: CheckedSnippet = {
  kind: 'info',
  title: 'Context',
  description: '',
  language: '',
  code: '',
  content: 'A Koa Context encapsulates request and response.',
  path: 'docs/api/context.md',
};
const withCode = (code: string, over: Partial<CheckedSnippet> = {}) => ({ ...good, code, ...over });

test('a good code snippet and a good info snippet pass every check', (t) => {
  t.deepEqual(snippetIssues(good), []);
  t.deepEqual(snippetIssues(prose), []);
});

test('titles, descriptions and languages must be present', (t) => {
  t.deepEqual(snippetIssues({ ...good, title: ' ' }), ['missing title']);
  t.deepEqual(snippetIssues({ ...good, description: '' }), ['missing description']);
  t.deepEqual(snippetIssues({ ...good, language: '' }), ['missing language']);
  t.deepEqual(snippetIssues({ ...prose, title: '' }), ['missing title']);
  t.deepEqual(snippetIssues({ ...prose, description: '', language: '' }), [], 'info snippets need neither');
});

test('code must be at least three lines or 80 characters', (t) => {
  t.true(snippetIssues(withCode('app.listen(3000);')).includes('code too short'));
  t.true(snippetIssues(withCode('a()\n\n\nb()')).includes('code too short'), 'blank lines do not count');
  t.false(snippetIssues(withCode('a()\nb()\nc()')).includes('code too short'));
  t.false(snippetIssues(withCode(`app.use(async (ctx, next) => { await next(); ctx.set('X-Response-Time', Date.now()); });`)).includes('code too short'));
});

test('licence and changelog snippets', (t) => {
  t.true(snippetIssues({ ...prose, content: 'Permission is hereby granted, free of charge, to any person obtaining a copy' }).includes('licence or changelog'));
  t.true(snippetIssues({ ...prose, title: 'License', content: 'MIT' }).includes('licence or changelog'));
  t.true(snippetIssues({ ...prose, title: '2.1.0 (2024-05-01)' }).includes('licence or changelog'));
  t.true(snippetIssues({ ...prose, title: 'v3.0.0' }).includes('licence or changelog'));
  t.true(snippetIssues({ ...prose, title: 'Fixes', breadcrumb: ['Changelog', 'Fixes'] }).includes('licence or changelog'));
  t.true(snippetIssues({ ...prose, path: 'CHANGELOG.md' }).includes('licence or changelog'));
  t.true(snippetIssues({ ...prose, path: 'docs/license.rst' }).includes('licence or changelog'));
  t.false(
    snippetIssues({ ...prose, title: 'Installation', breadcrumb: ['License', 'Installation'] }).includes('licence or changelog'),
    'a README whose page title is "License"',
  );
  t.false(snippetIssues({ ...prose, title: 'Migrating to v3' }).includes('licence or changelog'));
  t.false(snippetIssues({ ...prose, path: 'docs/history-design-future.md' }).includes('licence or changelog'));
});

test('directory trees', (t) => {
  const box = '.\n├── app\n│   ├── __init__.py\n│   └── main.py\n└── requirements.txt';
  const ascii = 'project\n|-- src\n|   `-- index.js\n`-- package.json';
  const bare = 'hello-project/\n    src/\n        hello/\n            __init__.py\n            hello.py\n    pyproject.toml';
  for (const tree of [box, ascii, bare]) t.true(snippetIssues(withCode(tree, { language: 'text' })).includes('directory tree'), tree);
  t.true(snippetIssues({ ...prose, content: box }).includes('directory tree'));
  const notTrees = [
    good.code,
    'foo.bar()\nbaz.qux()\nquux.run()',
    '| Token | Light |\n| `--color-bg` | #fff |\n| `--color-fg` | #000 |',
    'npm install\nnpm run build\nnpm test',
    'import os\nimport sys\nprint(os.name)',
  ];
  for (const code of notTrees) t.false(snippetIssues(withCode(code)).includes('directory tree'), code);
});

test('import-only snippets', (t) => {
  const imports = [
    "import Koa from 'koa';",
    "import { useState, useEffect } from 'react';\nimport type { FC } from 'react';\n// and the styles\nimport './app.css';",
    "import {\n  useState,\n  useEffect,\n} from 'react';",
    "const express = require('express');\nconst { Router } = require('express');",
    'from fastapi import FastAPI\nimport os\nfrom sqlalchemy.dialects.mysql import (\n    BIGINT,\n    BLOB,\n)',
    'using System;\nusing System.Linq;',
    '#include <stdio.h>\n#include "app.h"',
    'use std::collections::HashMap;\nuse serde::{Deserialize, Serialize};',
    'import java.util.List;\nimport static org.junit.Assert.*;',
    'import (\n  "fmt"\n  "net/http"\n)',
    "@use 'sass:math';\n@import 'variables';",
    "export * from './client';\nexport { get } from './http';",
  ];
  for (const code of imports) t.true(snippetIssues(withCode(code)).includes('imports only'), code);
  const notImportOnly = [good.code, "import Koa from 'koa';\nconst app = new Koa();", 'from fastapi import FastAPI\napp = FastAPI()', '# just a comment'];
  for (const code of notImportOnly) t.false(snippetIssues(withCode(code)).includes('imports only'), code);
});

test('install-only snippets', (t) => {
  const installs = [
    'npm install koa',
    'npm i -D typescript @types/node',
    '$ pip install fastapi',
    'python -m pip install "pydantic[email]"',
    'yarn add zod\n# or\npnpm add zod\nbun add zod',
    'npm install zod       # npm\ndeno add npm:zod      # deno',
    'go get github.com/gin-gonic/gin',
    'cargo add serde --features derive',
    'composer require guzzlehttp/guzzle',
    'uv add httpx && uv pip install anyio',
    'gem install rails',
    'dotnet add package Newtonsoft.Json',
    'yarn',
    'sudo apt-get install -y libpq-dev',
    'pip install \\\n  fastapi \\\n  uvicorn',
  ];
  for (const code of installs) t.true(snippetIssues(withCode(code, { language: 'sh' })).includes('install command only'), code);
  const notInstallOnly = ['npm install koa\nnode app.js', 'npm run build', 'pip freeze', 'yarn dev', '$ uvicorn main:app --reload'];
  for (const code of notInstallOnly) t.false(snippetIssues(withCode(code, { language: 'sh' })).includes('install command only'), code);
});

test('issues come in a fixed order', (t) => {
  t.deepEqual(snippetIssues({ ...good, title: '', description: '', language: '', code: 'npm i koa', path: 'CHANGELOG.md' }), [
    'missing title',
    'licence or changelog',
    'missing description',
    'missing language',
    'code too short',
    'install command only',
  ]);
});

test('benchmarkScore: 0 for nothing, 100 for clean snippets, one decimal, deterministic', (t) => {
  t.is(benchmarkScore([]), 0);
  t.is(benchmarkScore([good, prose]), 100);
  const mixed = [good, prose, { ...good, description: '' }, withCode('npm i koa', { language: '' }), { ...prose, title: 'License' }];
  const score = benchmarkScore(mixed);
  t.is(score, benchmarkScore([...mixed]));
  t.is(score, Math.round(score * 10) / 10);
  t.true(score > 0 && score < 100);
});

test('benchmarkScore is the weighted pass rate over the applicable checks', (t) => {
  const codeWeight = Object.values(QUALITY_CHECKS).reduce((n, c) => n + c.weight, 0);
  const infoWeight = Object.values(QUALITY_CHECKS)
    .filter((c) => c.all)
    .reduce((n, c) => n + c.weight, 0);
  const missingDescription = { ...good, description: '', code: good.code.replace('Hello', 'Hi') };
  const expected = (100 * (2 * codeWeight + infoWeight - QUALITY_CHECKS['missing description'].weight)) / (2 * codeWeight + infoWeight);
  t.is(benchmarkScore([good, missingDescription, prose]), Math.round(expected * 10) / 10);
  const worst = { ...good, title: '', description: '', language: '', code: 'npm i x', path: 'CHANGELOG.md' };
  t.true(benchmarkScore([worst]) < 40);
});

test('default trust scores per source', (t) => {
  t.deepEqual({ ...DEFAULT_TRUST_SCORES }, { github: 7, gitlab: 7, bitbucket: 7, git: 5, openapi: 6, local: 5, website: 5, llmstxt: 6, archive: 5 });
  t.true(Object.values(DEFAULT_TRUST_SCORES).every((v) => v >= 0 && v <= 10));
});

test('fidelity checks: placeholders of every include convention, other languages, leftover markup', (t) => {
  for (const code of ['{{#rustdoc_include ../listings/ch01/src/main.rs:all}}', '--8<-- "docs/snippet.md"', 'include::example$Client.java[tag=build]']) {
    t.deepEqual(fidelityIssues(withCode(code)), ['unresolved placeholder'], code);
  }
  t.deepEqual(fidelityIssues({ ...prose, content: '.. literalinclude:: ../examples/app.py' }), ['unresolved placeholder', 'leftover markup']);
  t.deepEqual(fidelityIssues({ ...prose, content: 'Store 是一个保存状态和业务逻辑的实体，它并不与你的组件树绑定。换句话说，它承载着全局状态。' }), [
    'not English',
  ]);
  for (const content of [
    "Click the button{' '}to go on.",
    'See :ref:`routing` for more.',
    '[source,java]',
    'Read xref:guide.adoc[the guide] first.',
    '<Tabs groupId="pm">',
    'Then </TabItem> ends it.',
  ]) {
    t.deepEqual(fidelityIssues({ ...prose, content }), ['leftover markup'], content);
  }
  t.deepEqual(fidelityIssues({ ...prose, path: 'docs/guide.adoc', content: 'Use the {project-name} client.' }), ['leftover markup']);
  for (const content of ['GET /users/{id} returns the user.', 'Interface: PiniaCustomStateProperties<S> and Map<K, V>.']) {
    t.deepEqual(fidelityIssues({ ...prose, content }), [], content);
  }
  t.deepEqual(fidelityIssues(good), []);
  t.deepEqual(fidelityIssues(prose), []);
  t.deepEqual(fidelityIssues({ ...prose, content: 'Objects are written as `{a: 1}` and sets as {1, 2}.' }), []);
});

test('a library of placeholders scores low and the report says why', (t) => {
  const clean = Array.from({ length: 10 }, (_, i) => withCode(`${good.code}\nconsole.log(${i});`));
  const placeholders = Array.from({ length: 10 }, (_, i) => withCode(`{{#include ../listings/ch${i}/src/main.rs}}`));
  const cleanScore = benchmarkScore(clean);
  const report = qualityReport([...clean, ...placeholders]);
  t.is(cleanScore, 100);
  t.true(report.score < 50, String(report.score));
  t.deepEqual(
    report.issues.find((i) => i.issue === 'unresolved placeholder'),
    { issue: 'unresolved placeholder', snippets: 10 },
  );
  const dup = qualityReport([...clean, ...clean.slice(0, 5)]);
  t.deepEqual(dup.issues, [{ issue: 'duplicate', snippets: 5 }]);
  t.is(dup.score, Math.round(1000 * (1 - (5 * 0.5) / 15)) / 10);
});

test('per-file figures sum to the report of all snippets, in any order and grouping', (t) => {
  const clean = Array.from({ length: 6 }, (_, i) => withCode(`${good.code}\nconsole.log(${i});`, { path: `docs/p${i % 3}.md` }));
  const placeholder = withCode('{{#include ../listings/ch1/src/main.rs}}', { path: 'docs/p1.md' });
  const markup = { ...prose, content: 'See :ref:`routing` for more about routing here.', path: 'docs/p2.md' };
  // Duplicates across files, one of them also costly otherwise (placeholder + duplicate is capped at 1).
  const dups = [
    { ...clean[0], path: 'docs/p9.md' },
    { ...placeholder, path: 'docs/p9.md' },
    { ...markup, path: 'docs/p8.md' },
    { ...markup, path: 'docs/p7.md', title: 'Again' },
  ];
  const all = [...clean, placeholder, markup, ...dups, { ...prose, title: '' }].map((s, i) => ({ ...s, tokens: 10 + i }));
  const whole = totalsFromFigures(figuresByFile(all));
  t.is(whole.totalSnippets, all.length);
  t.is(
    whole.totalTokens,
    all.reduce((n, s) => n + s.tokens, 0),
  );
  t.deepEqual(whole.quality, qualityReport(all));
  t.deepEqual(
    whole.quality.issues.find((i) => i.issue === 'duplicate'),
    { issue: 'duplicate', snippets: 4 },
  );
  // Kept files' figures plus the rest's, in another order: the same totals (what a refresh sums).
  const byFile = figuresByFile(all);
  const kept = byFile.filter((f) => f.p < 'docs/p5.md');
  const rest = figuresByFile([...all].reverse().filter((s) => s.path >= 'docs/p5.md'));
  t.deepEqual(totalsFromFigures([...rest, ...kept]), whole);
  t.deepEqual(qualityReport([...all].reverse()), whole.quality);
});

test('of duplicates, one a duplicate mark would cost goes unmarked, whatever the order', (t) => {
  const code = `${good.code}\nconsole.log('twice');`;
  const costly = withCode(code, { path: 'a.md' });
  // The same code (the duplicate key), a placeholder left in its description.
  const capped = withCode(code, { path: 'b.md', description: '{{#include x.rs}}' });
  const one = qualityReport([capped, costly]);
  const two = qualityReport([costly, capped]);
  t.deepEqual(one, two);
  // The placeholder costs its whole snippet already; the clean copy stays unmarked: only the placeholder is lost.
  t.is(one.score, Math.round(1000 * (1 - 1 / 2)) / 10);
});
