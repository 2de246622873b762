import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey, memberKey } from '../helpers';

// Issue 22 item 7: private library ids are scoped per team, so re-adding one never reveals
// that another team has it. Each team's copy is its own library; a client id resolves to
// the caller's team's copy first, else the public one; nobody else sees a private copy.
let git: GitServer;
let app: TestApp;
let admin: string;
let teamA: { key: string; teamId?: string };
let teamB: { key: string; teamId?: string };
let outsider: { key: string; teamId?: string };

const page = (word: string) => `# Internal\n\nThe ${word} handbook.\n\n## Usage\n\nStart the ${word} engine:\n\n\`\`\`js\nengine.start('${word}');\n\`\`\`\n`;
/** The repository's content changes between adds, so each copy holds different docs. */
const publish = (word: string) => createRepo(git.root, 'acme/internal', [{ files: { 'README.md': page(word) } }]);

test.before(async () => {
  git = await startGitServer();
  app = await createTestApp({ GITHUB_BASE_URL: git.url, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  admin = await adminKey(app);
  teamA = await memberKey(app, { teamPlan: 'pro' });
  teamB = await memberKey(app, { teamPlan: 'pro' });
  outsider = await memberKey(app, { teamPlan: 'pro' });
});
test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const add = (key: string, isPrivate: boolean) =>
  app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/internal`, private: isPrivate });
const context = (key?: string) => {
  const req = app.request.get('/v2/context').query({ libraryId: '/acme/internal', query: 'start the engine', type: 'json' });
  return key ? req.set('authorization', `Bearer ${key}`) : req;
};
const answerOf = async (key?: string) => JSON.stringify((await context(key)).body.snippets ?? []);

test.serial('a second team adds its own private copy of an id another team has: no 409, each team reads its own docs', async (t) => {
  publish('alpha');
  const a = await add(teamA.key, true);
  t.is(a.status, 200, JSON.stringify(a.body));
  t.is(a.body.libraryName, '/acme/internal');

  publish('bravo');
  const b = await add(teamB.key, true);
  t.is(b.status, 200, `team B is not told that team A has /acme/internal: ${JSON.stringify(b.body)}`);
  t.is(b.body.libraryName, '/acme/internal');

  const fromA = await answerOf(teamA.key);
  const fromB = await answerOf(teamB.key);
  t.regex(fromA, /alpha/);
  t.notRegex(fromA, /bravo/);
  t.regex(fromB, /bravo/);
  t.notRegex(fromB, /alpha/);
  t.false(/~/.test(fromA + fromB), 'no stored key reaches a caller');

  const dup = await add(teamA.key, true);
  t.is(dup.status, 409, 'the same team adding it again is still a duplicate (spec §4.1 rule 5)');
  t.is(dup.body.error, 'duplicate_repo');
});

test.serial('a third party gets 404 library_not_found for both copies, everywhere', async (t) => {
  for (const key of [outsider.key, undefined]) {
    const res = await context(key);
    t.is(res.status, 404);
    t.is(res.body.error, 'library_not_found');
  }
  const search = await app.request.get('/v2/libs/search').query({ libraryName: 'internal' }).set('authorization', `Bearer ${outsider.key}`);
  t.true(search.status === 404 || !search.body.results.some((r: { id: string }) => r.id === '/acme/internal'));
  const detail = await app.request.get('/v2/libraries/acme/internal').set('authorization', `Bearer ${outsider.key}`);
  t.is(detail.status, 404);
  const asTeamA = await app.request.get('/v2/libraries/acme/internal').query({ teamId: teamA.teamId }).set('authorization', `Bearer ${outsider.key}`);
  t.is(asTeamA.status, 404, "naming another team's copy does not reach it");
  const refresh = await app.request.post('/v2/refresh').set('authorization', `Bearer ${outsider.key}`).send({ libraryName: '/acme/internal' });
  t.is(refresh.status, 404);
  t.is(refresh.body.error, 'library_not_found');
  const jobs = await app.request.get('/v2/jobs').query({ libraryId: '/acme/internal' }).set('authorization', `Bearer ${outsider.key}`);
  t.deepEqual(jobs.body.jobs, []);
  const metrics = await app.request.get('/v2/libs/metrics').query({ libraryId: '/acme/internal' }).set('authorization', `Bearer ${outsider.key}`);
  t.is(metrics.body.totals.requests, 0);
});

test.serial('a public add of an id that exists only privately elsewhere succeeds; teams keep their own copy first', async (t) => {
  publish('charlie');
  const pub = await add(admin, false);
  t.is(pub.status, 200, JSON.stringify(pub.body));
  t.regex(await answerOf(outsider.key), /charlie/);
  t.regex(await answerOf(), /charlie/);
  t.regex(await answerOf(teamA.key), /alpha/, "team A's private copy comes before the public one");
  const search = await app.request.get('/v2/libs/search').query({ libraryName: 'internal' }).set('authorization', `Bearer ${teamA.key}`);
  t.is(search.body.results.filter((r: { id: string }) => r.id === '/acme/internal').length, 1, 'one result per id');
});

test.serial('an admin sees every copy with its team and can address one with teamId; members see theirs', async (t) => {
  const listed = await app.request.get('/v2/libraries').set('authorization', `Bearer ${admin}`);
  const copies = (listed.body.libraries as Array<{ id: string; private: boolean; teamId: string | null }>).filter((l) => l.id === '/acme/internal');
  t.deepEqual(copies.map((c) => (c.private ? c.teamId : 'public')).sort(), [teamA.teamId, teamB.teamId, 'public'].sort());

  const ofB = await app.request.get('/v2/libraries/acme/internal').query({ teamId: teamB.teamId }).set('authorization', `Bearer ${admin}`);
  t.is(ofB.status, 200);
  t.is(ofB.body.teamId, teamB.teamId);
  t.is(ofB.body.id, '/acme/internal');
  t.true(ofB.body.jobs.length > 0, "the copy's own jobs");
  t.true(ofB.body.jobs.every((j: { libraryId: string }) => j.libraryId === '/acme/internal'));

  const mine = await app.request.get('/v2/libraries').set('authorization', `Bearer ${teamA.key}`);
  const seen = (mine.body.libraries as Array<{ id: string; teamId: string | null; private: boolean }>).filter((l) => l.id === '/acme/internal');
  t.deepEqual(
    seen.map((c) => (c.private ? c.teamId : 'public')).sort(),
    [teamA.teamId, 'public'].sort(),
    "a member sees its team's copy and the public one, not team B's",
  );
});

test.serial('a team deletes its own copy; the other copies stay', async (t) => {
  const del = await app.request.delete('/v2/libraries/acme/internal').set('authorization', `Bearer ${teamB.key}`);
  t.is(del.status, 200, JSON.stringify(del.body));
  t.is(del.body.libraryName, '/acme/internal');
  t.regex(await answerOf(teamB.key), /charlie/, 'team B now reads the public copy');
  t.regex(await answerOf(teamA.key), /alpha/, "team A's copy is untouched");
});
