import test from 'ava';
import { applyPolicyPatch, defaultPolicy, isDefaultPolicy, libraryAllowedByPolicy, libraryIdProblem, policyPatchSchema, type LibraryFilters } from './policy';

const policy = (f: Partial<LibraryFilters>) => ({ libraryFilters: { ...defaultPolicy().libraryFilters, ...f } });
const lib = (id: string, trustScore = 7, source = 'github') => ({ id, source, trustScore });

test('the default policy allows everything and is recognised as default', (t) => {
  t.true(libraryAllowedByPolicy(defaultPolicy(), lib('/a/b', 0, 'openapi')));
  t.true(isDefaultPolicy(defaultPolicy()));
  t.false(isDefaultPolicy(policy({ blockedLibraries: ['/a/b'] })));
});

test('quality mode: blocked libraries are refused (case-insensitively)', (t) => {
  const p = policy({ blockedLibraries: ['/Vercel/Next.js'] });
  t.false(libraryAllowedByPolicy(p, lib('/vercel/next.js')));
  t.true(libraryAllowedByPolicy(p, lib('/facebook/react')));
});

test('quality mode: below minTrustScore is hidden unless excepted', (t) => {
  const p = policy({ minTrustScore: 5, exceptedLibraries: ['/low/but-ok'] });
  t.false(libraryAllowedByPolicy(p, lib('/low/trust', 4.9)));
  t.true(libraryAllowedByPolicy(p, lib('/ok/trust', 5)));
  t.true(libraryAllowedByPolicy(p, lib('/low/but-ok', 1)));
});

test('quality mode: sourceTypes restrict sources when non-empty (excepted pass)', (t) => {
  const p = policy({ sourceTypes: ['github', 'gitlab'], exceptedLibraries: ['/openapi/stripe'] });
  t.true(libraryAllowedByPolicy(p, lib('/a/b', 7, 'gitlab')));
  t.false(libraryAllowedByPolicy(p, lib('/openapi/petstore', 7, 'openapi')));
  t.true(libraryAllowedByPolicy(p, lib('/openapi/stripe', 7, 'openapi')));
});

test('select mode: only allowed and excepted libraries; blocked always wins', (t) => {
  const p = policy({ mode: 'select', allowedLibraries: ['/a/one', '/a/blocked'], exceptedLibraries: ['/a/two'], blockedLibraries: ['/a/blocked'] });
  t.true(libraryAllowedByPolicy(p, lib('/a/one', 0)));
  t.true(libraryAllowedByPolicy(p, lib('/a/two')));
  t.false(libraryAllowedByPolicy(p, lib('/a/three', 10)));
  t.false(libraryAllowedByPolicy(p, lib('/a/blocked')));
});

test('patch schema: accepts a partial libraryFilters and dedupes lists', (t) => {
  const r = policyPatchSchema.parse({ libraryFilters: { mode: 'select', allowedLibraries: ['/a/b', '/a/b'] } });
  const next = applyPolicyPatch(defaultPolicy(), r);
  t.is(next.libraryFilters.mode, 'select');
  t.deepEqual(next.libraryFilters.allowedLibraries, ['/a/b']);
  t.deepEqual(next.libraryFilters.blockedLibraries, []);
});

test('patch schema: rejects bad values and unknown fields', (t) => {
  const bad = [
    { libraryFilters: { mode: 'everything' } },
    { libraryFilters: { minTrustScore: 11 } },
    { libraryFilters: { blockedLibraries: ['not-an-id'] } },
    { libraryFilters: { sourceTypes: ['svn'] } },
    { libraryFilters: { color: 'red' } },
    { other: 1 },
  ];
  for (const body of bad) t.false(policyPatchSchema.safeParse(body).success, JSON.stringify(body));
  t.true(policyPatchSchema.safeParse({ libraryFilters: { minTrustScore: null } }).success);
});

test('patch schema: every listed library must be a library id, and the error names the bad value', (t) => {
  // Each of these passed the old pattern (/^\/[^/\s]+\/[^/\s]+$/) and matched no library ever.
  const bad = ['/acme/widgets!', '/../etc', '/acme/widgets@1.0', '/a/b c', '/acme/wid*', '/-x/y'];
  for (const id of bad) {
    const result = policyPatchSchema.safeParse({ libraryFilters: { allowedLibraries: ['/ok/one', id] } });
    t.false(result.success, id);
    if (!result.success) {
      t.true(result.error.issues[0].message.includes(`"${id}"`), result.error.issues[0].message);
      t.deepEqual(result.error.issues[0].path, ['libraryFilters', 'allowedLibraries', 1]);
    }
  }
  const ok = policyPatchSchema.parse({ libraryFilters: { allowedLibraries: [' /acme/widgets/ ', '/openapi/petstore-lite', '/git/my.repo_2'] } });
  t.deepEqual(ok.libraryFilters.allowedLibraries, ['/acme/widgets', '/openapi/petstore-lite', '/git/my.repo_2']);
  t.is(libraryIdProblem('/acme/widgets/v1.0.0'), 'names a version; a policy lists whole libraries (/acme/widgets)');
});
