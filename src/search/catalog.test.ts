import test from 'ava';
import { allowedTypos, coreName, editDistance, matchLibraryNames, nameMatchScore, normalizeName, rankLibraries, suggestLibraries } from './catalog';
import { typoKeys } from './catalog-document';
import type { LibrarySummary } from './types';

function library(id: string, title: string, extra: Partial<LibrarySummary> = {}): LibrarySummary {
  return {
    id,
    title,
    description: '',
    branch: 'main',
    lastUpdateDate: new Date('2026-01-01T00:00:00Z'),
    state: 'finalized',
    totalTokens: 1000,
    totalSnippets: 100,
    trustScore: 7,
    benchmarkScore: 70,
    versions: [],
    ...extra,
  };
}

const CATALOG: LibrarySummary[] = [
  library('/koajs/koa', 'Koa', { aliases: ['koa.js'] }),
  library('/pallets/flask', 'Flask'),
  library('/pallets/click', 'Click'),
  library('/colinhacks/zod', 'Zod'),
  library('/Automattic/mongoose', 'Mongoose'),
  library('/psf/requests', 'Requests'),
  library('/encode/httpx', 'HTTPX'),
  library('/expressjs/expressjs.com', 'expressjs.com'),
  library('/axios/axios', 'axios'),
  library('/vercel/next.js', 'Next.js'),
  library('/remix-run/react-router', 'React Router'),
  library('/reactjs/react.dev', 'react.dev'),
  library('/vitejs/vite', 'Vite'),
  library('/vuejs/docs', 'docs'),
];

const top = (libraryName: string, contentScores?: Map<string, number>): string[] =>
  rankLibraries({ libraryName, libraries: CATALOG, contentScores }).map((r) => r.library.id);

test('exact names, ids and URLs', (t) => {
  t.is(top('koa')[0], '/koajs/koa');
  t.is(top('Flask')[0], '/pallets/flask');
  t.is(top('/koajs/koa')[0], '/koajs/koa');
  t.is(top('koajs/koa')[0], '/koajs/koa');
  t.is(top('https://github.com/koajs/koa')[0], '/koajs/koa');
  t.is(top('/vercel/next.js/v14.2.0')[0], '/vercel/next.js');
  t.is(nameMatchScore('/koajs/koa', CATALOG[0]), 1);
});

test('case- and punctuation-insensitive names', (t) => {
  t.is(top('nextjs')[0], '/vercel/next.js');
  t.is(top('Next.js')[0], '/vercel/next.js');
  t.is(top('next')[0], '/vercel/next.js');
  t.is(top('react router')[0], '/remix-run/react-router');
  t.is(top('react-router')[0], '/remix-run/react-router');
  t.is(top('httpx')[0], '/encode/httpx');
});

test('repository names, owners and site names', (t) => {
  t.is(top('mongoose')[0], '/Automattic/mongoose');
  t.is(top('express')[0], '/expressjs/expressjs.com');
  t.is(top('expressjs')[0], '/expressjs/expressjs.com');
  t.is(top('react')[0], '/reactjs/react.dev');
  t.true(top('react').includes('/remix-run/react-router'));
  t.is(top('vue')[0], '/vuejs/docs');
  t.is(top('koa.js')[0], '/koajs/koa');
});

test('typos and prefixes', (t) => {
  t.is(top('mongose')[0], '/Automattic/mongoose');
  t.is(top('axois')[0], '/axios/axios');
  t.is(top('flsk')[0], '/pallets/flask');
  t.is(top('mongo')[0], '/Automattic/mongoose');
  t.is(top('mongoose odm')[0], '/Automattic/mongoose');
  // Short names allow no typo: "zod" does not find "koa" and "vue" does not find "vite".
  t.false(top('zod').includes('/koajs/koa'));
  t.false(top('vue').includes('/vitejs/vite'));
});

test('an unknown name matches nothing, whatever the content says', (t) => {
  t.deepEqual(top('kubernetes'), []);
  t.deepEqual(top(''), []);
  // Names we do not have are never resolved to a library whose docs mention the words.
  const content = new Map([
    ['/encode/httpx', 10],
    ['/psf/requests', 9],
    ['/koajs/koa', 1],
  ]);
  t.deepEqual(top('python http client', content), []);
  for (const name of ['django', 'prisma', 'sveltekit', 'nestjs', 'tailwind']) t.deepEqual(top(name, content), [], name);
  const withoutNext = CATALOG.filter((l) => l.id !== '/vercel/next.js');
  t.deepEqual(rankLibraries({ libraryName: 'nextjs', libraries: withoutNext }), []);
});

test('padding after the real matches is cut', (t) => {
  const libraries = [
    library('/acme/tool', 'tool'),
    library('/tool/other', 'other'), // owner match only
    library('/b/tools-extra', 'tools extra'), // prefix
    library('/c/tol', 'tol'),
    library('/d/toolx', 'toolx'), // one typo away
  ];
  t.deepEqual(
    matchLibraryNames('tool', libraries).map((m) => m.library.id),
    ['/acme/tool', '/b/tools-extra', '/d/toolx'],
    'the owner-only match beside an exact name is padding; a 3-letter name is no typo of a 4-letter one',
  );
  t.deepEqual(
    matchLibraryNames('other', libraries).map((m) => m.library.id),
    ['/tool/other'],
  );
  t.deepEqual(
    matchLibraryNames('acme', libraries).map((m) => m.library.id),
    ['/acme/tool'],
    'an owner alone still answers when nothing else matches',
  );
  // Within a matched set, content still reorders.
  const reordered = rankLibraries({ libraryName: 'react', libraries: CATALOG, contentScores: new Map([['/remix-run/react-router', 10]]) });
  t.deepEqual(reordered.map((r) => r.library.id).sort(), ['/reactjs/react.dev', '/remix-run/react-router'], 'nothing but the two name matches');
});

test('suggestions for a name nobody matched are near names only', (t) => {
  t.deepEqual(suggestLibraries('mongoos-odm', CATALOG), ['/Automattic/mongoose']);
  t.deepEqual(suggestLibraries('django', CATALOG), []);
  t.deepEqual(suggestLibraries('python http client', CATALOG), []);
  t.deepEqual(suggestLibraries('', CATALOG), []);
});

test('content reorders libraries whose names match alike', (t) => {
  const libraries = [library('/a/router', 'router'), library('/b/router', 'router')];
  const content = new Map([
    ['/b/router', 5],
    ['/a/router', 1],
  ]);
  t.deepEqual(
    rankLibraries({ libraryName: 'router', libraries, contentScores: content }).map((r) => r.library.id),
    ['/b/router', '/a/router'],
  );
});

test('quality signals break ties', (t) => {
  const libraries = [
    library('/low/tool', 'tool', { trustScore: 2, benchmarkScore: 30, totalSnippets: 5 }),
    library('/high/tool', 'tool', { trustScore: 9, benchmarkScore: 90, totalSnippets: 5000 }),
    library('/unknown/tool', 'tool', { trustScore: undefined }),
  ];
  const ranked = rankLibraries({ libraryName: 'tool', libraries });
  t.deepEqual(
    ranked.map((r) => r.library.id),
    ['/high/tool', '/unknown/tool', '/low/tool'],
  );
  t.true(ranked[0].score > ranked[1].score);
});

test('name helpers', (t) => {
  t.is(normalizeName('Next.js'), 'nextjs');
  t.is(normalizeName('Café-Router'), 'caferouter');
  t.is(coreName('expressjs.com'), 'express');
  t.is(coreName('react.dev'), 'react');
  t.is(coreName('vue-docs'), 'vue');
  t.is(coreName('js'), 'js');
  t.is(editDistance('axios', 'axois'), 1);
  t.is(editDistance('mongoose', 'mongose'), 1);
  t.is(editDistance('kitten', 'sitting'), 3);
  t.is(editDistance('', 'abc'), 3);
});

test('typo keys: two names within the typos allowed always share one (every edit of a set of names, up to two)', (t) => {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const edits = (word: string): string[] => {
    const out: string[] = [];
    for (let i = 0; i <= word.length; i++) {
      for (const c of 'aqz7') out.push(word.slice(0, i) + c + word.slice(i)); // insertions
      if (i < word.length) {
        out.push(word.slice(0, i) + word.slice(i + 1)); // deletions
        out.push(word.slice(0, i) + letters[(letters.indexOf(word[i]) + 5) % letters.length] + word.slice(i + 1)); // substitutions
      }
      if (i + 1 < word.length) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)); // transpositions
    }
    return out;
  };
  let pairs = 0;
  for (const name of ['flask', 'mongoose', 'sqlalchemy', 'pydantic', 'zodz', 'expressjs', 'requests']) {
    const once = edits(name);
    for (const other of [...once, ...once.flatMap(edits)]) {
      const distance = editDistance(name, other);
      if (distance === 0 || distance > allowedTypos(name, other)) continue;
      pairs++;
      const keys = new Set(typoKeys(name));
      t.true(
        typoKeys(other).some((k) => keys.has(k)),
        `${name} / ${other} (distance ${distance})`,
      );
    }
  }
  t.true(pairs > 1000, `${pairs} pairs checked`);
  t.deepEqual(typoKeys('koa'), [], 'names under 4 letters have no typo keys');
});
