import test from 'ava';
import { catalogueKeys, goModuleRepository, matchPackage, packageNames, type CandidateLibrary } from './map-packages';

const lib = (id: string, extra: Partial<CandidateLibrary> = {}): CandidateLibrary => ({
  id,
  title: id.split('/')[2] ?? id,
  aliases: [],
  trustScore: 5,
  ...extra,
});

test("the rules in order: registry-name table, repository, name (with the ecosystem's affixes)", (t) => {
  const catalogue = [
    lib('/koajs/koa'),
    lib('/koajs/router', { aliases: ['npm:@koa/router'] }),
    lib('/npm/node-semver'),
    lib('/babel/babel'),
    lib('/gin-gonic/gin'),
    lib('/redis/redis-rb'),
  ];
  t.like(matchPackage({ ecosystem: 'npm', name: 'koa' }, catalogue), { libraryId: '/koajs/koa', matchedBy: 'name' });
  t.like(matchPackage({ ecosystem: 'npm', name: '@koa/router' }, catalogue), { libraryId: '/koajs/router', matchedBy: 'registry-name' });
  t.like(matchPackage({ ecosystem: 'npm', name: 'semver' }, catalogue), { libraryId: '/npm/node-semver', matchedBy: 'name' });
  // A scope is not a library: @koa/* are other repositories than /koajs/koa.
  t.is(matchPackage({ ecosystem: 'npm', name: '@koa/cors' }, catalogue), null);
  t.is(matchPackage({ ecosystem: 'npm', name: '@babel/core' }, catalogue), null);
  t.like(matchPackage({ ecosystem: 'go', name: 'github.com/gin-gonic/gin' }, catalogue), { libraryId: '/gin-gonic/gin', matchedBy: 'repository' });
  t.like(matchPackage({ ecosystem: 'rubygems', name: 'redis' }, catalogue), { libraryId: '/redis/redis-rb', matchedBy: 'name' });
  // An affix of another ecosystem does not count: an npm "redis" is not the Ruby client.
  t.is(matchPackage({ ecosystem: 'npm', name: 'redis' }, catalogue), null);
  t.is(matchPackage({ ecosystem: 'cargo', name: 'serde_json' }, catalogue), null);
});

test("one name, several libraries: the one naming the package's language, then the most trusted; the rest are alternatives", (t) => {
  const catalogue = [lib('/babel/babel', { trustScore: 9 }), lib('/python-babel/babel', { trustScore: 6 })];
  t.deepEqual(matchPackage({ ecosystem: 'pypi', name: 'babel' }, catalogue), {
    libraryId: '/python-babel/babel',
    matchedBy: 'name',
    alternatives: ['/babel/babel'],
  });
  t.deepEqual(matchPackage({ ecosystem: 'npm', name: 'babel' }, catalogue), {
    libraryId: '/babel/babel',
    matchedBy: 'name',
    alternatives: ['/python-babel/babel'],
  });
});

test('names and repositories of Go and Maven packages; the keys asked of the catalogue', (t) => {
  t.is(goModuleRepository('github.com/go-playground/validator/v10'), '/go-playground/validator');
  t.is(goModuleRepository('golang.org/x/net'), null);
  t.deepEqual(packageNames({ ecosystem: 'go', name: 'github.com/go-playground/validator/v10' }), ['validator']);
  t.deepEqual(packageNames({ ecosystem: 'go', name: 'gopkg.in/yaml.v3' }), ['yaml']);
  t.deepEqual(packageNames({ ecosystem: 'maven', name: 'com.h2database:h2' }), ['h2']);
  const keys = catalogueKeys([
    { ecosystem: 'npm', name: '@koa/router' },
    { ecosystem: 'go', name: 'github.com/gin-gonic/gin' },
  ]);
  t.true(keys.normals.includes('npmkoarouter') && keys.normals.includes('koarouter') && keys.normals.includes('nodekoarouter') && keys.normals.includes('gin'));
  t.deepEqual(keys.ids, ['/gin-gonic/gin']);
});
