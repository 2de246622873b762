/**
 * A refresh that writes only what changed serves what a full build of the same commit serves
 * and reports the same figures (pipeline/publish.ts sums the kept files' figures from the
 * manifest; pipeline/pages.ts keeps the unchanged pages' stub and copy verdicts), and its job
 * counts what changed by the documents themselves. Real stores, a local bare repository
 * cloned through a `file:` URL (its snippets' links carry no commit, so token counts do not
 * depend on which commit a kept snippet was written at; see "Generations").
 */
import test, { type ExecutionContext } from 'ava';
import { createRepo, commitToRepo, startGitServer, type GitServer } from '../git-server';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, servedSnippets } from '../helpers';
import type { JobRecord } from '../../src/store/models/job';
import { FIGURES_VERSION } from '../../src/indexing/snippets/quality-report';

let git: GitServer;
let app: TestApp;
let admin: string;
let bare: string;

const LIB = '/git/docs';
const prose = (topic: string) =>
  `The ${topic} service keeps a queue of requests, retries each failed request with a growing delay, and reports what it gave up on. ` +
  `Every request carries a deadline; a request past its deadline is dropped before it is sent, so a slow upstream cannot pile work up. ` +
  `Settings are read once at start-up and checked, and a bad value names the setting and the value it expected.`;

const GUIDE = `# Guide\n\n## Starting\n\n${prose('guide')}\n\n\`\`\`js\nconst s = start({ port: 1 });\ns.on('ready', () => console.log('ready'));\ns.stop();\n\`\`\`\n\n## Stopping\n\nStopping flushes the queue first and then closes every connection it opened.\n`;
const API = `# API\n\n## retry()\n\n\`\`\`js\nretry(fn)\n\`\`\`\n\n## deadline()\n\nSets the deadline of a request.\n\n\`\`\`js\nconst r = request('/users');\nr.deadline(500);\nawait r.send();\n\`\`\`\n`;
const INTRO = `# Intro\n\n## Example\n\nThe whole example program:\n\n\`\`\`python\n{{#include ../examples/app.py}}\n\`\`\`\n`;
const APP = `import queue\n\nq = queue.Queue()\nq.put("job")\nprint(q.get())\n`;

test.before(async () => {
  git = await startGitServer();
  bare = createRepo(git.root, 'local/docs', [
    {
      files: {
        'book.toml': '[book]\ntitle = "Docs"\n',
        'docs/guide.md': GUIDE,
        'docs/api.md': API,
        'docs/intro.md': INTRO,
        'examples/app.py': APP,
        'docs/moved.md': '# Moved\n\nThis page has moved to the guide.\n',
        'notes/queue.md': `# Queue notes\n\n## Why a queue\n\n${prose('notes')} Then it was measured.\n`,
        'notes/other.md': `# Other\n\n## Something else\n\nA page about something else entirely, with a sentence or two of its own.\n`,
      },
    },
  ]);
  app = await createTestApp({ GIT_ALLOWED_URL_PREFIXES: `file://${git.root}/`, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000', RATE_LIMIT_KEY_PER_MINUTE: '10000' });
  admin = await adminKey(app);
  await add();
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const auth = () => ({ authorization: `Bearer ${admin}` });

async function add(): Promise<void> {
  const res = await app.request
    .post('/v2/add/repo/git')
    .set(auth())
    .send({ docsRepoUrl: `file://${git.root}/local/docs.git` });
  if (res.status !== 200) throw new Error(`add: ${res.status} ${JSON.stringify(res.body)}`);
}

async function refresh(): Promise<JobRecord> {
  const res = await app.request.post('/v2/refresh').set(auth()).send({ libraryName: LIB });
  if (res.status !== 200) throw new Error(`refresh: ${res.status} ${JSON.stringify(res.body)}`);
  const [job] = await app.services.jobs.list({ libraryId: LIB, limit: 1 });
  const full = job ? await app.services.jobs.get(job._id) : null;
  if (!full) throw new Error('no refresh job');
  return full;
}

/** What a version reports: the figures a full build and a refresh must agree on. */
async function reported() {
  const lib = await app.services.libraries.get(LIB, { fresh: true });
  const v = lib?.versions.find((x) => x.version === 'latest');
  if (!v) throw new Error('latest is not served');
  const snippets = await servedSnippets(app, LIB);
  return {
    figures: { totalSnippets: v.totalSnippets, totalTokens: v.totalTokens, benchmarkScore: v.benchmarkScore, qualityIssues: v.qualityIssues },
    served: snippets.map((s) => `${s.path}:${s.startLine}:${s.title}`).sort(),
    tokens: snippets.reduce((n, s) => n + s.tokens, 0),
  };
}

/** The same commit built from scratch: the library deleted and added again. */
async function fullRebuild() {
  const res = await app.request.delete(`/v2/libraries${LIB}`).set(auth());
  if (res.status !== 200) throw new Error(`delete: ${res.status} ${JSON.stringify(res.body)}`);
  await add();
  return reported();
}

const messages = (job: JobRecord) => job.log.map((l) => l.message);

/** What the refresh serves and reports, then the same of a full rebuild of the commit: they must be equal. */
async function sameAsFullRebuild(t: ExecutionContext, refreshed: Awaited<ReturnType<typeof reported>>): Promise<void> {
  const rebuilt = await fullRebuild();
  t.deepEqual(refreshed.served, rebuilt.served);
  t.deepEqual(refreshed.figures, rebuilt.figures);
}

test.serial('a one-file refresh reports what a full build of the same commit reports, reading only that page; its job counts one file changed', async (t) => {
  commitToRepo(bare, { 'docs/api.md': `${API}\n## timeout()\n\nSets how long to wait.\n\n\`\`\`js\nrequest('/users').timeout(1000);\n\`\`\`\n` });
  const job = await refresh();
  t.is(job.state, 'finalized', messages(job).join('\n'));
  t.deepEqual(
    [job.progress.filesAdded, job.progress.filesChanged, job.progress.filesRemoved],
    [0, 1, 0],
    'the stub and the page with includes are not counted as changed',
  );
  t.true(
    messages(job).some((m) => /^read 1 of \d+ pages/.test(m)),
    messages(job).join('\n'),
  );
  t.true(
    messages(job).some((m) => /skipped docs\/moved\.md: redirect stub/.test(m)),
    'the kept verdict is still reported',
  );
  const refreshed = await reported();
  t.is(refreshed.figures.totalTokens, refreshed.tokens, "the totals are the served snippets'");
  await sameAsFullRebuild(t, refreshed);
});

test.serial('a change that makes a page a copy of an unchanged one is judged against every page, as a full build would', async (t) => {
  // notes/queue.md becomes the guide's prose: a copy in another folder; docs/ holds the book's sources.
  commitToRepo(bare, { 'notes/queue.md': GUIDE.replace('# Guide', '# Guide (notes)') });
  const job = await refresh();
  t.is(job.state, 'finalized', messages(job).join('\n'));
  t.deepEqual([job.progress.filesAdded, job.progress.filesChanged, job.progress.filesRemoved], [0, 1, 0]);
  t.true(
    messages(job).some((m) => /checked every page/.test(m)),
    messages(job).join('\n'),
  );
  t.true(
    messages(job).some((m) => m === 'skipped notes/queue.md: a copy of docs/guide.md'),
    messages(job).join('\n'),
  );
  const refreshed = await reported();
  t.false(
    refreshed.served.some((s) => s.startsWith('notes/queue.md')),
    'the copy is not served',
  );
  await sameAsFullRebuild(t, refreshed);
});

test.serial('a change to an included file re-parses the page that includes it, and the counts say no document changed', async (t) => {
  commitToRepo(bare, { 'examples/app.py': APP.replace('"job"', '"another job"') });
  const job = await refresh();
  t.is(job.state, 'finalized', messages(job).join('\n'));
  t.deepEqual([job.progress.filesAdded, job.progress.filesChanged, job.progress.filesRemoved], [0, 0, 0]);
  t.true(
    messages(job).some((m) => /^parsed 1 files/.test(m)),
    messages(job).join('\n'),
  );
  const refreshed = await reported();
  await sameAsFullRebuild(t, refreshed);
});

test.serial(
  'a manifest without figures (an older one) or with figures of other checks: the refresh reads the kept snippets, reports the same, and records figures again',
  async (t) => {
    const kept = await app.services.manifests.get(LIB, 'latest');
    // Figures "of other checks": every file's tokens counted differently; summing them would show.
    const otherChecks = (kept?.figures ?? []).map((f) => ({ ...f, t: f.t + 1000 }));
    t.true(otherChecks.length > 0);
    for (const [n, stale] of [
      { $unset: { figures: 1, figuresVersion: 1 } },
      { $set: { figures: otherChecks, figuresVersion: FIGURES_VERSION + 1 } },
    ].entries()) {
      await app.handles.models.Manifest.updateOne({ _id: `${LIB}@latest` }, stale);
      commitToRepo(bare, { 'notes/other.md': `# Other\n\n## Something else ${n}\n\nA page about something else entirely, changed ${n}.\n` });
      const job = await refresh();
      t.is(job.state, 'finalized', messages(job).join('\n'));
      const manifest = await app.services.manifests.get(LIB, 'latest');
      t.is(manifest?.figuresVersion, FIGURES_VERSION);
      const lib = await app.services.libraries.get(LIB, { fresh: true });
      t.is(manifest?.generation, lib?.versions.find((v) => v.version === 'latest')?.generation);
      t.is(
        manifest?.figures?.reduce((sum, f) => sum + f.n, 0),
        lib?.versions.find((v) => v.version === 'latest')?.totalSnippets,
      );
      const refreshed = await reported();
      const rebuilt = await fullRebuild();
      t.deepEqual(refreshed.figures, rebuilt.figures);
    }
  },
);
