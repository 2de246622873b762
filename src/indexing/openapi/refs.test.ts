import test from 'ava';
import { countExpandedNodes, derefSchema, followRefs, refName, resolveRef } from './refs';
import { cpuMs } from '../../util/cpu-time';

const root = {
  components: {
    schemas: {
      Pet: { type: 'object', properties: { name: { type: 'string' }, owner: { $ref: '#/components/schemas/Person' } } },
      Person: { type: 'object', properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
      Alias: { $ref: '#/components/schemas/Pet', description: 'An aliased pet' },
      Loop: { $ref: '#/components/schemas/Loop' },
    },
  },
  paths: { '/pets/{id}': { get: { operationId: 'getPet' } }, 'a~b': { x: 1 } },
  list: ['zero', 'one'],
};

test('resolveRef follows JSON pointers with ~0, ~1 and percent unescaping', (t) => {
  t.is(resolveRef(root, '#/paths/~1pets~1{id}/get/operationId'), 'getPet');
  t.is(resolveRef(root, '#/paths/~1pets~1%7Bid%7D/get/operationId'), 'getPet');
  t.deepEqual(resolveRef(root, '#/paths/a~0b'), { x: 1 });
  t.is(resolveRef(root, '#/list/1'), 'one');
  t.is(resolveRef(root, '#'), root);
});

test('resolveRef returns undefined for missing, external and prototype paths', (t) => {
  t.is(resolveRef(root, '#/components/schemas/Nope'), undefined);
  t.is(resolveRef(root, '#/list/7'), undefined);
  t.is(resolveRef(root, 'other.yaml#/Pet'), undefined);
  t.is(resolveRef(root, '#/constructor'), undefined);
  t.is(resolveRef(root, '#/list/length'), undefined);
});

test('refName is the unescaped last segment', (t) => {
  t.is(refName('#/components/schemas/Pet'), 'Pet');
  t.is(refName('#/paths/~1pets'), '/pets');
});

test('followRefs lays $ref siblings over the target and detects self-references', (t) => {
  const alias = followRefs(root, { $ref: '#/components/schemas/Alias' });
  t.is(alias.name, 'Pet');
  t.is(alias.value?.description, 'An aliased pet');
  t.is(alias.value?.type, 'object');
  const loop = followRefs(root, { $ref: '#/components/schemas/Loop' });
  t.true(loop.circular);
  t.is(loop.value, undefined);
});

test('derefSchema resolves lazily and marks cycles instead of recursing forever', (t) => {
  const pet = derefSchema(root, { $ref: '#/components/schemas/Pet' }, 10) as Record<string, never>;
  const owner = pet.properties['owner'] as Record<string, never>;
  const items = (owner.properties['pets'] as Record<string, Record<string, unknown>>).items;
  t.deepEqual(items, { $circular: 'Pet' });
  t.deepEqual(derefSchema(root, { $ref: '#/components/schemas/Missing' }, 5), { $unresolved: '#/components/schemas/Missing' });
});

test('derefSchema stops at the depth limit, leaving deeper values as they are', (t) => {
  const shallow = derefSchema(root, { $ref: '#/components/schemas/Pet' }, 2) as { properties: { owner: unknown } };
  t.deepEqual(shallow.properties.owner, { $ref: '#/components/schemas/Person' });
});

test('countExpandedNodes measures exponential $ref fan-out in linear time', (t) => {
  const schemas: Record<string, unknown> = { S0: { type: 'string' } };
  for (let i = 1; i <= 60; i++) schemas[`S${i}`] = { a: { $ref: `#/components/schemas/S${i - 1}` }, b: { $ref: `#/components/schemas/S${i - 1}` } };
  const doc = { components: { schemas } };
  const { value: count, ms } = cpuMs(() => countExpandedNodes(doc, 1_000_000));
  t.is(count, 1_000_001);
  t.true(ms < 500, `${ms.toFixed(0)} ms of CPU`);
  t.true(countExpandedNodes(root, 1000) < 100);
});
