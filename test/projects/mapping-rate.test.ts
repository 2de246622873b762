/**
 * The mapping rate on real lockfiles (test/fixtures/lockfiles/): a catalogue holding the
 * repository of every package in the ground truth (repositories.json: a sample of each file's
 * direct packages, whose repositories are well known), titled by repository name as a build
 * without a README title would be; each file's sample mapped through the catalogue index;
 * correct, wrong and unmapped counted per format and rule, with decoys in the catalogue
 * (koa, flask, go, rust, node... whose names a package could be taken for). Then the registry-name table is
 * filled for the packages the rules missed (aliases `<ecosystem>:<name>`, as an admin would),
 * and everything maps. The figures are printed (t.log) and the floors asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { catalogDocument } from '../../src/search/catalog-document';
import { parseLockfile } from '../../src/projects/lockfiles';
import { mapPackages, registryAlias } from '../../src/projects/map-packages';
import type { LockedPackage } from '../../src/projects/lockfiles/types';

const DIR = path.join(ROOT_DIR, 'test', 'fixtures', 'lockfiles');
const truth = JSON.parse(fs.readFileSync(path.join(DIR, 'repositories.json'), 'utf8')) as Record<string, Record<string, string> | string>;
const files = Object.keys(truth).filter((k) => k !== '_about');

let app: TestApp;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
});
test.after.always(async () => {
  await app?.close();
});

/** Libraries no sampled package is, whose names packages could be mistaken for. */
const DECOYS = [
  '/koajs/koa',
  '/koajs/router',
  '/pallets/flask',
  '/django/django',
  '/expressjs/express',
  '/golang/go',
  '/rust-lang/rust',
  '/python/cpython',
  '/nodejs/node',
  '/ruby/ruby',
  '/vuejs/core',
  '/facebook/react',
  '/spring-projects/spring-framework',
  '/sphinx-doc/sphinx-tabs',
  '/pytest-dev/pytest-cov',
];

/** Public, built catalogue documents of `ids` (named by their repository), with aliases where given. */
async function putLibraries(ids: readonly string[], aliases: ReadonlyMap<string, string[]> = new Map()): Promise<void> {
  const now = Date.now();
  await app.services.catalogIndex.put(
    ids.map((id) =>
      catalogDocument({
        key: id,
        private: false,
        teamId: null,
        source: 'github',
        built: true,
        latest: { generation: 1 },
        changedAt: now,
        summary: {
          id,
          title: id.split('/')[2] ?? id,
          description: '',
          branch: 'main',
          lastUpdateDate: new Date(now),
          state: 'finalized',
          totalTokens: 1,
          totalSnippets: 1,
          trustScore: 7,
          benchmarkScore: 50,
          versions: [],
          aliases: aliases.get(id) ?? [],
        },
      }),
    ),
  );
}

async function putCatalogue(aliases: Map<string, string[]>): Promise<void> {
  await putLibraries([...new Set([...DECOYS, ...files.flatMap((f) => Object.values(truth[f] as Record<string, string>))])], aliases);
}

interface Tally {
  sample: number;
  correct: number;
  wrong: string[];
  unmapped: string[];
  byRule: Record<string, number>;
}

async function measure(): Promise<Map<string, Tally & { missed: LockedPackage[] }>> {
  const out = new Map<string, Tally & { missed: LockedPackage[] }>();
  for (const file of files) {
    const expected = truth[file] as Record<string, string>;
    const { packages } = parseLockfile(file, fs.readFileSync(path.join(DIR, file), 'utf8'));
    const unique = [...new Map(packages.map((p) => [p.name, p])).values()];
    const sample = unique.filter((p) => expected[p.name] !== undefined);
    const matches = await mapPackages(app.services, { kind: 'service' }, sample);
    const tally: Tally & { missed: LockedPackage[] } = { sample: sample.length, correct: 0, wrong: [], unmapped: [], byRule: {}, missed: [] };
    sample.forEach((p, i) => {
      const m = matches[i];
      if (!m) {
        tally.unmapped.push(p.name);
        tally.missed.push(p);
      } else if (m.libraryId === expected[p.name]) {
        tally.correct++;
        tally.byRule[m.matchedBy] = (tally.byRule[m.matchedBy] ?? 0) + 1;
      } else {
        tally.wrong.push(`${p.name} → ${m.libraryId} (${m.matchedBy})`);
        tally.missed.push(p);
      }
    });
    out.set(file, tally);
  }
  return out;
}

const line = (file: string, t: Tally) =>
  `${file.padEnd(18)} ${String(t.correct).padStart(3)}/${String(t.sample).padEnd(3)} correct (${
    Object.entries(t.byRule)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ') || '-'
  }); wrong ${t.wrong.length}${t.wrong.length ? ` [${t.wrong.join('; ')}]` : ''}; unmapped ${t.unmapped.length}`;

test.serial('mapping rate of each format: the rules alone, then with the registry-name table filled', async (t) => {
  await putCatalogue(new Map());
  const first = await measure();
  let correct = 0;
  let sample = 0;
  let wrong = 0;
  for (const [file, tally] of first) {
    t.log(line(file, tally));
    correct += tally.correct;
    sample += tally.sample;
    wrong += tally.wrong.length;
  }
  t.log(`all: ${correct}/${sample} correct by the rules alone (${((100 * correct) / sample).toFixed(1)}%), ${wrong} wrong`);
  t.is(sample, 192, 'every package of the ground truth is in its lockfile');
  // A Go module names its repository: all of github.com's map; of the vanity paths, golang.org/x/net
  // and google.golang.org/protobuf match by name (protobuf-go: the affix), go.mongodb.org needs the table.
  t.is(first.get('go.mod')?.correct, 14);
  t.true(correct / sample >= 0.6, 'most packages are named like their repository');
  t.true(wrong <= 3, 'a name shared across ecosystems (pypi babel and /babel/babel) is the known kind of wrong match');

  // The registry-name table: an alias per missed package, on its library.
  const aliases = new Map<string, string[]>();
  for (const [file, tally] of first) {
    for (const p of tally.missed) {
      const id = (truth[file] as Record<string, string>)[p.name] as string;
      aliases.set(id, [...(aliases.get(id) ?? []), registryAlias(p)]);
    }
  }
  await putCatalogue(aliases);
  const second = await measure();
  for (const [file, tally] of second) {
    t.log(`with the table: ${line(file, tally)}`);
    t.is(tally.correct, tally.sample, file);
  }
});

test.serial('a big lockfile maps in chunks: packages past the first 500 find their libraries too', async (t) => {
  await putLibraries(['/acme/pkg-0042', '/acme/pkg-0777', '/acme/pkg-1499']);
  const packages = Array.from({ length: 1500 }, (_, i) => ({
    ecosystem: 'npm' as const,
    name: `pkg-${String(i).padStart(4, '0')}`,
    version: '1.0.0',
    direct: true,
  }));
  const started = process.cpuUsage();
  const matches = await mapPackages(app.services, { kind: 'service' }, packages);
  const cpu = process.cpuUsage(started);
  t.log(`1,500 packages mapped in ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU`);
  t.is(matches.length, 1500);
  t.deepEqual(
    matches.flatMap((m, i) => (m ? [`${packages[i]?.name}→${m.libraryId}`] : [])),
    ['pkg-0042→/acme/pkg-0042', 'pkg-0777→/acme/pkg-0777', 'pkg-1499→/acme/pkg-1499'],
  );
});
