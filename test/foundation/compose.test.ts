import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { ROOT_DIR } from '../../src/config';

// No Docker engine runs here, so the compose file is checked by parsing it.
interface Service {
  image?: string;
  build?: string;
  environment?: string[];
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
const compose = yaml.load(fs.readFileSync(path.join(ROOT_DIR, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

test('runs elasticsearch (same version as local), mongo and shelfmark', (t) => {
  t.deepEqual(Object.keys(compose.services).sort(), ['elasticsearch', 'mongo', 'shelfmark']);
  t.regex(compose.services.elasticsearch.image ?? '', /elasticsearch:9\.5\.0$/);
  t.regex(compose.services.mongo.image ?? '', /^mongo:/);
  t.is(compose.services.shelfmark.build, '.');
  t.true(fs.existsSync(path.join(ROOT_DIR, 'Dockerfile')));
});

test('every service has a healthcheck and shelfmark waits for healthy stores', (t) => {
  for (const [name, s] of Object.entries(compose.services)) t.truthy(s.healthcheck?.test, `${name} has a healthcheck`);
  t.deepEqual(compose.services.shelfmark.depends_on, {
    elasticsearch: { condition: 'service_healthy' },
    mongo: { condition: 'service_healthy' },
  });
});

test('ports and named volumes are declared', (t) => {
  t.true((compose.services.shelfmark.ports ?? []).includes('3000:3000'));
  t.true((compose.services.elasticsearch.ports ?? []).some((p) => p.endsWith(':9200')));
  t.true((compose.services.mongo.ports ?? []).some((p) => p.endsWith(':27017')));
  for (const s of Object.values(compose.services)) {
    for (const v of s.volumes ?? []) t.true(v.split(':')[0] in compose.volumes, `volume ${v} is declared`);
  }
});

test('shelfmark points at the compose stores', (t) => {
  const env = compose.services.shelfmark.environment ?? [];
  t.true(env.includes('ELASTICSEARCH_URL=http://elasticsearch:9200'));
  t.true(env.includes('MONGODB_URI=mongodb://mongo:27017/'));
});
