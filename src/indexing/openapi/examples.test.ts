import test from 'ava';
import { exampleFromSchema } from './examples';

const root = {
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', example: 'Rex' }, tag: { type: 'string' } },
      },
      Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/components/schemas/Node' } } },
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
      Cat: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { meows: { type: 'boolean' } } }] },
    },
  },
};

test('authored values win: example, examples, default, const, enum', (t) => {
  t.is(exampleFromSchema(root, { type: 'string', example: 'hi' }), 'hi');
  t.is(exampleFromSchema(root, { type: 'string', examples: ['first', 'second'] }), 'first');
  t.is(exampleFromSchema(root, { type: 'integer', default: 20 }), 20);
  t.is(exampleFromSchema(root, { const: 'fixed' }), 'fixed');
  t.is(exampleFromSchema(root, { type: 'string', enum: ['asc', 'desc'] }), 'asc');
});

test('formats give realistic strings', (t) => {
  t.is(exampleFromSchema(root, { type: 'string', format: 'date-time' }), '2024-01-01T00:00:00Z');
  t.is(exampleFromSchema(root, { type: 'string', format: 'email' }), 'user@example.com');
  t.is(exampleFromSchema(root, { type: 'string', format: 'uri' }), 'https://example.com');
  t.is(exampleFromSchema(root, { type: 'string', format: 'uuid' }), '3fa85f64-5717-4562-b3fc-2c963f66afa6');
  t.is(exampleFromSchema(root, { type: 'integer', minimum: 5 }), 5);
  t.is(exampleFromSchema(root, { type: ['string', 'null'] }), 'string');
});

test('objects put required properties first; requests drop readOnly and optional ones', (t) => {
  t.deepEqual(Object.keys(exampleFromSchema(root, { $ref: '#/components/schemas/Pet' }) as object), ['name', 'id', 'tag']);
  t.deepEqual(exampleFromSchema(root, { $ref: '#/components/schemas/Pet' }, { mode: 'request' }), { name: 'Rex' });
  t.deepEqual(exampleFromSchema(root, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } }, { mode: 'request' }), {
    a: 'string',
    b: 0,
  });
});

test('arrays hold one item; allOf merges; oneOf/anyOf take the first non-null branch', (t) => {
  t.deepEqual(exampleFromSchema(root, { type: 'array', items: { type: 'integer' } }), [0]);
  t.deepEqual(exampleFromSchema(root, { $ref: '#/components/schemas/Cat' }), { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', meows: true });
  t.is(exampleFromSchema(root, { oneOf: [{ type: 'null' }, { type: 'string', format: 'date' }] }), '2024-01-01');
  t.deepEqual(exampleFromSchema(root, { anyOf: [{ $ref: '#/components/schemas/Base' }, { type: 'string' }] }), { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' });
  t.deepEqual(exampleFromSchema(root, { type: 'object', additionalProperties: { type: 'integer' } }), { key: 0 });
});

test('recursive schemas end: a cycle drops the property, depth is bounded', (t) => {
  const node = exampleFromSchema(root, { $ref: '#/components/schemas/Node' });
  t.deepEqual(node, { value: 'string' });
  const deep = {
    type: 'object',
    properties: {
      a: {
        type: 'object',
        properties: {
          b: { type: 'object', properties: { c: { type: 'object', properties: { d: { type: 'object', properties: { e: { type: 'string' } } } } } } },
        },
      },
    },
  };
  t.deepEqual(exampleFromSchema(root, deep), { a: { b: { c: { d: {} } } } });
  t.deepEqual(exampleFromSchema(root, deep, { maxDepth: 2 }), { a: { b: {} } });
});

test('the size budget keeps examples small', (t) => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 500; i++) properties[`field_${i}`] = { type: 'string', description: 'x' };
  const example = exampleFromSchema(root, { type: 'object', properties });
  const size = JSON.stringify(example).length;
  t.true(size < 2300, `${size} bytes`);
  t.true(Object.keys(example as object).length > 10);
});

test('unresolvable schemas give undefined; an empty schema gives an empty object', (t) => {
  t.is(exampleFromSchema(root, { $ref: '#/components/schemas/Missing' }), undefined);
  t.deepEqual(exampleFromSchema(root, {}), {});
});
