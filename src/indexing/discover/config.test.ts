import test from 'ava';
import { parseRepoConfig, parseRepoConfigFiles, pickRepoConfigFile, RepoConfigError } from './config';

const parse = (value: unknown, name = 'context7.json') => parseRepoConfig(JSON.stringify(value), name);

function configError(t: import('ava').ExecutionContext, value: unknown): RepoConfigError {
  const error = t.throws(() => parse(value), { instanceOf: RepoConfigError });
  if (!(error instanceof RepoConfigError)) throw new Error('expected a RepoConfigError');
  return error;
}

test('every documented field is read; plain-string versions become { tag }', (t) => {
  const { config, warnings } = parse({
    $schema: 'https://context7.com/schema/context7.json',
    url: 'https://context7.com/upstash/ratelimit',
    public_key: 'pk_abc',
    projectTitle: ' Upstash Ratelimit ',
    description: 'Ratelimiting library based on Upstash Redis',
    folders: ['docs', ''],
    excludeFolders: ['src'],
    excludeFiles: ['CHANGELOG.md'],
    rules: ['Use Upstash Redis as a database', '  '],
    previousVersions: [{ tag: 'v1.2.1', title: 'v1' }, 'v1.0.0', { tag: 'v0.9.0' }],
    branch: 'main',
  });
  t.deepEqual(config, {
    projectTitle: 'Upstash Ratelimit',
    description: 'Ratelimiting library based on Upstash Redis',
    folders: ['docs'],
    excludeFolders: ['src'],
    excludeFiles: ['CHANGELOG.md'],
    rules: ['Use Upstash Redis as a database'],
    previousVersions: [{ tag: 'v1.2.1', title: 'v1' }, { tag: 'v1.0.0' }, { tag: 'v0.9.0' }],
    branch: 'main',
  });
  t.deepEqual(warnings, [], '$schema, url and public_key are tolerated silently');
});

test('an empty object and null fields are an empty config', (t) => {
  t.deepEqual(parse({}).config, {});
  t.deepEqual(parse({ folders: null, description: null }).config, {});
});

test('unknown fields are ignored with a warning', (t) => {
  const { config, warnings } = parse({ projectTitle: 'X', branchVersions: [{ branch: 'v1' }] });
  t.deepEqual(config, { projectTitle: 'X' });
  t.deepEqual(warnings, ['unknown field "branchVersions" ignored']);
});

test('invalid JSON and non-objects are RepoConfigErrors', (t) => {
  const bad = t.throws(() => parseRepoConfig('{ "folders": [', 'shelfmark.json'), { instanceOf: RepoConfigError });
  t.regex(bad?.message ?? '', /^not valid JSON/);
  t.is((bad as RepoConfigError).fileName, 'shelfmark.json');
  t.is(configError(t, ['docs']).message, 'must contain a JSON object');
  t.is(configError(t, 'docs').message, 'must contain a JSON object');
  t.is(configError(t, null).message, 'must contain a JSON object');
});

test('a BOM before the JSON is accepted', (t) => {
  t.deepEqual(parseRepoConfig('\uFEFF{"folders":["docs"]}', 'context7.json').config, { folders: ['docs'] });
});

test('wrong types name the field', (t) => {
  const cases: [unknown, string, RegExp][] = [
    [{ folders: 'docs' }, 'folders', /must be an array, not string/],
    [{ folders: ['docs', 3] }, 'folders[1]', /must be a string, not number/],
    [{ excludeFolders: {} }, 'excludeFolders', /must be an array, not object/],
    [{ excludeFiles: [true] }, 'excludeFiles[0]', /must be a string/],
    [{ rules: 'be nice' }, 'rules', /must be an array/],
    [{ projectTitle: 42 }, 'projectTitle', /must be a string, not number/],
    [{ description: ['x'] }, 'description', /must be a string, not array/],
    [{ branch: 7 }, 'branch', /must be a string/],
    [{ previousVersions: 'v1' }, 'previousVersions', /must be an array/],
    [{ previousVersions: [{ title: 'no tag' }] }, 'previousVersions[0]', /tag string or an object/],
    [{ previousVersions: [{ tag: 1 }] }, 'previousVersions[0]', /tag string or an object/],
  ];
  for (const [value, field, message] of cases) {
    const error = configError(t, value);
    t.is(error.field, field, JSON.stringify(value));
    t.true(error.message.startsWith(`field "${field}" `), error.message);
    t.regex(error.message, message);
  }
});

test('refs that git would refuse, or read as options, are rejected', (t) => {
  for (const branch of ['-rf', 'a..b', 'has space', 'x~1', 'x^', 'a:b', 'ends.', 'ends/', 'a//b', '@{u}']) {
    t.is(configError(t, { branch }).field, 'branch', branch);
  }
  t.is(configError(t, { previousVersions: ['--upload-pack=x'] }).field, 'previousVersions[0]');
  t.deepEqual(parse({ branch: 'release/2.x', previousVersions: ['svelte@5.1.0', 'v1.0.0-rc.1'] }).config, {
    branch: 'release/2.x',
    previousVersions: [{ tag: 'svelte@5.1.0' }, { tag: 'v1.0.0-rc.1' }],
  });
});

test('lengths are bounded', (t) => {
  t.is(configError(t, { projectTitle: 'x'.repeat(201) }).field, 'projectTitle');
  t.regex(configError(t, { folders: Array.from({ length: 501 }, (_, i) => `d${i}`) }).message, /more than 500 entries/);
  t.is(configError(t, { branch: '' }).field, 'branch');
});

test('paths leaving the repository and duplicate versions are dropped with warnings', (t) => {
  const { config, warnings } = parse({ folders: ['/etc', '../x', 'docs'], previousVersions: ['v1', { tag: 'v1', title: 'again' }] });
  t.deepEqual(config.folders, ['docs']);
  t.deepEqual(config.previousVersions, [{ tag: 'v1' }]);
  t.is(warnings.length, 3);
  t.regex(warnings[0], /folders entry "\/etc" ignored/);
  t.regex(warnings[2], /previousVersions lists "v1" twice/);
});

test('shelfmark.json wins over context7.json', (t) => {
  const both = parseRepoConfigFiles({ 'context7.json': '{"folders":["a"]}', 'shelfmark.json': '{"folders":["b"]}' });
  t.is(both?.fileName, 'shelfmark.json');
  t.deepEqual(both?.config, { folders: ['b'] });
  t.deepEqual(both?.warnings, ['context7.json ignored: shelfmark.json takes precedence']);
  t.is(parseRepoConfigFiles({ 'context7.json': '{"folders":["a"]}' })?.fileName, 'context7.json');
  t.is(parseRepoConfigFiles({}), undefined);
  // Only the chosen file is parsed: a broken context7.json beside a good shelfmark.json is ignored.
  t.is(parseRepoConfigFiles({ 'context7.json': '{', 'shelfmark.json': '{}' })?.fileName, 'shelfmark.json');
  t.throws(() => parseRepoConfigFiles({ 'shelfmark.json': '{' }), { instanceOf: RepoConfigError });
  t.is(pickRepoConfigFile(['README.md', 'context7.json', 'shelfmark.json']), 'shelfmark.json');
  t.is(pickRepoConfigFile(['docs/context7.json']), undefined);
});

test('defaultExclusions and duplicatePages: per-kind switches, false for all, a threshold; wrong shapes name the field', (t) => {
  t.deepEqual(parse({ defaultExclusions: { navigation: false, releaseNotes: false } }).config.defaultExclusions, { navigation: false, releaseNotes: false });
  t.deepEqual(parse({ defaultExclusions: false }).config.defaultExclusions, {
    navigation: false,
    maintainerNotes: false,
    outputListings: false,
    sampleData: false,
    releaseNotes: false,
    redirectStubs: false,
  });
  t.deepEqual(parse({ duplicatePages: false }).config.duplicatePages, { enabled: false });
  t.deepEqual(parse({ duplicatePages: { threshold: 0.95 } }).config.duplicatePages, { enabled: true, threshold: 0.95 });
  t.is(parse({ defaultExclusions: null, duplicatePages: null }).config.defaultExclusions, undefined);
  const unknownKind = configError(t, { defaultExclusions: { todo: false } });
  t.is(unknownKind.field, 'defaultExclusions');
  t.is(
    unknownKind.message,
    'field "defaultExclusions" has unknown key "todo"; known: navigation, maintainerNotes, outputListings, sampleData, releaseNotes, redirectStubs',
  );
  const notObject = configError(t, { defaultExclusions: true });
  t.is(notObject.field, 'defaultExclusions');
  t.regex(notObject.message, /must be false or an object of booleans/);
  t.regex(configError(t, { defaultExclusions: { navigation: 'no' } }).message, /^field "defaultExclusions" must be false or an object of booleans/);
  const threshold = configError(t, { duplicatePages: { threshold: 0.2 } });
  t.is(threshold.field, 'duplicatePages.threshold');
  t.is(threshold.message, 'field "duplicatePages.threshold" must be at least 0.5');
});
