/**
 * Synthetic catalogues for `npm run scale-bench`: libraries made by re-labelling slices of
 * real bundles (the corpus libraries exported as they are served), so each synthetic library
 * holds real snippets — real text, real vectors — under a new id, title and generation. A
 * library of `n` snippets is a contiguous run of one source version's snippets; ids, keys and
 * generations are rewritten by the importer as for any bundle.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { encodeLine, type BundleHeader } from '../../../src/catalog/bundles/format';

/** A source bundle in memory: its header and the snippet documents of its first version. */
export interface SourceBundle {
  header: BundleHeader;
  version: string;
  docs: Array<Record<string, unknown>>;
}

/** Reads a bundle file (gzip NDJSON) into memory, keeping the first version's snippets. */
export function readSourceBundle(file: string): SourceBundle {
  const lines = zlib
    .gunzipSync(fs.readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
  const header = JSON.parse(lines[0]) as BundleHeader;
  const version = header.versions[0].version;
  const docs: Array<Record<string, unknown>> = [];
  for (const line of lines.slice(1)) {
    const value = JSON.parse(line) as { type: string; doc?: Record<string, unknown> };
    if (value.type === 'snippet' && value.doc && value.doc.version === version) docs.push(value.doc);
  }
  return { header, version, docs };
}

const WORDS = [
  'amber',
  'atlas',
  'beacon',
  'birch',
  'cargo',
  'cedar',
  'cinder',
  'comet',
  'copper',
  'coral',
  'delta',
  'ember',
  'fable',
  'falcon',
  'fern',
  'flint',
  'garnet',
  'glacier',
  'harbor',
  'hazel',
  'helix',
  'indigo',
  'iris',
  'jade',
  'juniper',
  'kernel',
  'kestrel',
  'lagoon',
  'lantern',
  'ledger',
  'lumen',
  'maple',
  'marble',
  'meadow',
  'mercury',
  'nebula',
  'nimbus',
  'nova',
  'oak',
  'onyx',
  'orbit',
  'otter',
  'pebble',
  'pepper',
  'pine',
  'pixel',
  'prism',
  'quartz',
  'quill',
  'raven',
  'reef',
  'ripple',
  'rocket',
  'saffron',
  'sage',
  'sierra',
  'signal',
  'slate',
  'sparrow',
  'spruce',
  'summit',
  'tango',
  'thistle',
  'tidal',
  'timber',
  'topaz',
  'tundra',
  'umber',
  'valley',
  'vector',
  'velvet',
  'willow',
  'wren',
  'yarrow',
  'zephyr',
  'zinc',
];
const KINDS = [
  'sync',
  'kit',
  'core',
  'client',
  'server',
  'cli',
  'ui',
  'orm',
  'router',
  'store',
  'auth',
  'query',
  'forms',
  'charts',
  'mail',
  'cache',
  'queue',
  'test',
  'lint',
  'docs',
];

/**
 * The id and title of synthetic library `i`: `/<word>-labs-<k>/<word>-<kind>-<i>`; one in
 * four borrows a real library's name (`flask-cache-17`), as ecosystems are full of them.
 */
export function syntheticName(i: number, realNames: readonly string[]): { id: string; title: string } {
  const word = WORDS[(i * 7) % WORDS.length];
  const kind = KINDS[(i * 3 + Math.floor(i / WORDS.length)) % KINDS.length];
  const base = i % 4 === 0 && realNames.length > 0 ? realNames[(i / 4) % realNames.length] : word;
  const owner = `${WORDS[(i * 11 + 5) % WORDS.length]}-labs-${i % 97}`;
  const repo = `${base}-${kind}-${i}`;
  return { id: `/${owner}/${repo}`, title: repo };
}

/** A small library's snippets (10–29, about 20): the bulk-load rate's unit. */
export function smallSize(i: number): number {
  return 10 + ((i * 7) % 20);
}

/** How many snippets synthetic library `i` holds (90–129, about 110 on average). */
export function syntheticSize(i: number): number {
  return 90 + ((i * 7) % 40);
}

/** The lines of synthetic library `i` cut from `source` (header, files, snippets, trailer). */
export function syntheticBundleLines(
  i: number,
  source: SourceBundle,
  realNames: readonly string[],
  sizeOf: (i: number) => number = syntheticSize,
  now = new Date('2026-11-01T00:00:00Z'),
): string[] {
  const size = Math.min(sizeOf(i), source.docs.length);
  const offset = source.docs.length > size ? (i * 131) % (source.docs.length - size) : 0;
  const docs: Array<Record<string, unknown>> = source.docs.slice(offset, offset + size).map((d) => ({ ...d, version: 'latest' }));
  const name = syntheticName(i, realNames);
  const tokens = docs.reduce((n, d) => n + (typeof d.tokens === 'number' ? d.tokens : 0), 0);
  const commit = createHash('sha1').update(`synthetic ${i}`).digest('hex');
  const header: BundleHeader = {
    ...source.header,
    createdAt: now.toISOString(),
    library: {
      ...source.header.library,
      id: name.id,
      title: name.title,
      description: `${name.title}: ${source.header.library.description}`.slice(0, 5000),
      repoUrl: '',
      cloneUrl: '',
      aliases: [],
      nameKeys: [],
      trustScore: 3 + (i % 7),
    },
    versions: [
      {
        version: 'latest',
        ref: 'main',
        tags: [],
        commit,
        // Distinct per library and older than any real build, so the corpus's own builds always win.
        generation: 1_600_000_000_000 + i,
        totalSnippets: docs.length,
        totalTokens: tokens,
        benchmarkScore: source.header.versions[0].benchmarkScore,
        lastUpdateDate: now.toISOString(),
      },
    ],
  };
  const files = [...new Map(docs.map((d) => [String(d.path), String(d.fileHash ?? '')])).entries()].map(([p, h]) => ({ p, h }));
  const lines = [encodeLine(header), encodeLine({ type: 'files', version: 'latest', files }), ...docs.map((doc) => encodeLine({ type: 'snippet', doc }))];
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line);
  lines.push(encodeLine({ type: 'end', lines: lines.length, sha256: hash.digest('hex') }));
  return lines;
}

/** Writes synthetic libraries `from` ≤ i < `to` as bundle files into `dir`; returns the files. */
export function writeSyntheticBundles(
  dir: string,
  sources: readonly SourceBundle[],
  from: number,
  to: number,
  sizeOf: (i: number) => number = syntheticSize,
): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const realNames = sources.map((s) => s.header.library.id.split('/')[2] ?? 'lib');
  const files: string[] = [];
  for (let i = from; i < to; i++) {
    const file = path.join(dir, `synthetic-${String(i).padStart(6, '0')}.shelfmark.gz`);
    fs.writeFileSync(file, zlib.gzipSync(syntheticBundleLines(i, sources[i % sources.length], realNames, sizeOf).join(''), { level: 1 }));
    files.push(file);
  }
  return files;
}
