/**
 * What the soak indexes: a few small Git repositories of generated Markdown served by a
 * local Git smart-HTTP server (changed between refreshes), and OpenAPI documents (from
 * shared/corpus/openapi when present, else generated). Content and questions are pure
 * functions of a repository's name, so the questions always have answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

export interface SoakRepo {
  /** Path on the Git server, without .git: `soak/aurora`. */
  repoPath: string;
  /** Added through `/v2/add/repo/github` (library `/soak/<name>`) or `/git` (library `/git/<name>`). */
  host: 'github' | 'git';
  name: string;
  nouns: string[];
}

const NAMES = ['aurora', 'basalt', 'cobalt', 'dune', 'ember', 'fjord'];
const NOUN_SETS = [
  ['lamp', 'scene', 'dimmer', 'schedule', 'zone'],
  ['sample', 'core', 'drill', 'assay', 'stratum'],
  ['pigment', 'palette', 'kiln', 'glaze', 'batch'],
  ['caravan', 'oasis', 'route', 'beacon', 'ledger'],
  ['furnace', 'bellows', 'ingot', 'mould', 'anvil'],
  ['ferry', 'pier', 'tide', 'manifest', 'harbour'],
];
const VERBS = ['create', 'delete', 'list', 'update', 'configure a timeout for', 'retry failed requests of'];

export function soakRepos(): SoakRepo[] {
  return NAMES.map((name, i) => ({ repoPath: `soak/${name}`, host: i % 3 === 2 ? 'git' : 'github', name, nouns: NOUN_SETS[i] }));
}

/**
 * Larger repositories added only by --chaos right before each kill (a few seconds of
 * indexing on a small machine), so a job is running when the store goes away.
 */
export function chaosRepos(): SoakRepo[] {
  return ['atlas', 'borealis'].map((name, i) => ({
    repoPath: `soak/${name}`,
    host: 'github',
    name,
    nouns: [`chart${i}`, `compass${i}`, `sextant${i}`, `meridian${i}`, `bearing${i}`],
  }));
}

/** The pages of a chaos repository: its own pages plus `volume` generated sections. */
export function bulkFiles(repo: SoakRepo, volume: number): Record<string, string> {
  const files = repoFiles(repo);
  for (let k = 0; k < volume; k++) {
    const noun = repo.nouns[k % repo.nouns.length];
    files[`docs/volume/${String(k).padStart(4, '0')}.md`] =
      `# ${cap(noun)} note ${k}\n\n## Calibrate ${noun} ${k}\n\nSet \`offset${k}\` before the ${noun} is used.\n\n\`\`\`js\n${repo.name}.calibrate${cap(noun)}({ offset${k}: ${k % 17} });\n\`\`\`\n`;
  }
  return files;
}

/** The library id a repository gets once added. */
export function libraryIdOfRepo(repo: SoakRepo): string {
  return repo.host === 'git' ? `/git/${repo.name}` : `/${repo.repoPath}`;
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

/** The Markdown pages of a repository: a README and one page per noun with code examples. */
export function repoFiles(repo: SoakRepo): Record<string, string> {
  const files: Record<string, string> = {
    'README.md': `# ${cap(repo.name)}\n\n${cap(repo.name)} manages ${repo.nouns.slice(0, 3).join(', ')} and more, for the soak test of Shelfmark.\n\n## Install\n\n\`\`\`sh\nnpm install ${repo.name}\n\`\`\`\n`,
  };
  for (const noun of repo.nouns) {
    const N = cap(noun);
    files[`docs/${noun}.md`] = [
      `# Working with ${noun}s`,
      '',
      `A ${noun} is the unit ${cap(repo.name)} uses to group work.`,
      '',
      `## Create a ${noun}`,
      '',
      `Call \`${repo.name}.create${N}()\` with a name; it returns the new ${noun}.`,
      '',
      '```js',
      `const ${noun} = await ${repo.name}.create${N}({ name: 'first', tags: ['soak'] });`,
      '```',
      '',
      `## Delete a ${noun}`,
      '',
      `\`${repo.name}.delete${N}(id)\` removes the ${noun} and everything attached to it.`,
      '',
      '```js',
      `await ${repo.name}.delete${N}(${noun}.id, { force: true });`,
      '```',
      '',
      `## List ${noun}s`,
      '',
      `Pages through every ${noun}, newest first, with an optional filter.`,
      '',
      '```js',
      `for await (const item of ${repo.name}.list${N}s({ filter: { tag: 'soak' } })) console.log(item.name);`,
      '```',
      '',
      `## Timeouts and retries`,
      '',
      `Each ${noun} call accepts \`timeoutMs\` and \`retries\`; failed requests are retried with backoff.`,
      '',
      '```js',
      `${repo.name}.configure({ ${noun}: { timeoutMs: 5000, retries: 3 } });`,
      '```',
      '',
    ].join('\n');
  }
  return files;
}

/** The change committed before the n-th refresh: a release-notes page that grows. */
export function refreshChange(repo: SoakRepo, n: number): Record<string, string> {
  const noun = repo.nouns[n % repo.nouns.length];
  const notes = Array.from(
    { length: n },
    (_, i) =>
      `## Release ${i + 1}\n\n\`${repo.name}.update${cap(noun)}()\` gains the \`option${i + 1}\` setting.\n\n\`\`\`js\nawait ${repo.name}.update${cap(noun)}(id, { option${i + 1}: true });\n\`\`\`\n`,
  );
  return { 'docs/releases.md': `# Releases\n\n${notes.join('\n')}` };
}

/** Questions a repository's docs answer (verbs × nouns: 30 per repository). */
export function repoQuestions(repo: SoakRepo): string[] {
  return repo.nouns.flatMap((noun) => VERBS.map((verb) => `how do I ${verb} a ${noun} with ${repo.name}`));
}

export interface OpenApiDoc {
  fileName: string;
  text: string;
  /** Questions from its operations (summary or method + path). */
  questions: string[];
}

/** Documents larger than this are left out: one upload would parse for seconds on a small machine. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

/** The OpenAPI documents of `dir` (JSON or YAML, at most 1 MB), or generated ones when it has none. */
export function openApiDocs(dir: string): { docs: OpenApiDoc[]; note?: string } {
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => /\.(json|ya?ml)$/.test(n))
      .sort();
  } catch {
    return { docs: generatedOpenApiDocs(), note: `no OpenAPI folder at ${dir}: uploading generated documents` };
  }
  const skipped: string[] = [];
  const docs: OpenApiDoc[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (fs.statSync(file).size > MAX_UPLOAD_BYTES) {
      skipped.push(name);
      continue;
    }
    const text = fs.readFileSync(file, 'utf8');
    docs.push({ fileName: name, text, questions: operationQuestions(text) });
  }
  if (docs.length === 0) return { docs: generatedOpenApiDocs(), note: `no OpenAPI document under 1 MB in ${dir}: uploading generated documents` };
  return { docs, ...(skipped.length > 0 ? { note: `OpenAPI documents over 1 MB left out of the uploads: ${skipped.join(', ')}` } : {}) };
}

/** "how do I <summary>" for each operation of an OpenAPI document (its text, JSON or YAML). */
export function operationQuestions(text: string): string[] {
  let doc: unknown;
  try {
    doc = text.trimStart().startsWith('{') ? JSON.parse(text) : yaml.load(text);
  } catch {
    return [];
  }
  type Ops = Record<string, Record<string, { summary?: unknown; operationId?: unknown }>>;
  const parsed = doc as { paths?: Ops; webhooks?: Ops; info?: { title?: unknown } } | null;
  const paths = parsed?.paths ?? {};
  const out: string[] = [];
  // OpenAPI 3.1 documents may have only webhooks (indexed as "Webhook: <name>").
  for (const name of Object.keys(parsed?.webhooks ?? {})) out.push(`what does the ${name} webhook send`);
  for (const [p, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops ?? {})) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const summary = typeof op?.summary === 'string' && op.summary.trim() ? op.summary.trim() : `${method.toUpperCase()} ${p}`;
      out.push(`how do I ${summary.replace(/\.$/, '').toLowerCase()}`);
    }
  }
  // A document without operations is still asked about: its title matches its overview.
  if (out.length === 0 && typeof parsed?.info?.title === 'string' && parsed.info.title.trim())
    out.push(`what is the ${parsed.info.title.trim().toLowerCase()}`);
  return [...new Set(out)];
}

function generatedOpenApiDocs(): OpenApiDoc[] {
  return ['inventory', 'billing'].map((area) => {
    const doc = {
      openapi: '3.0.3',
      info: { title: `Soak ${area} API`, version: '1.0.0', description: `A generated ${area} API for the soak.` },
      paths: Object.fromEntries(
        ['item', 'order', 'invoice'].map((thing) => [
          `/${thing}s/{id}`,
          {
            get: {
              summary: `Get one ${thing} of the ${area}`,
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '200': { description: `The ${thing}` } },
            },
            delete: {
              summary: `Delete a ${thing} from the ${area}`,
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '204': { description: 'Deleted' } },
            },
          },
        ]),
      ),
    };
    const text = JSON.stringify(doc, null, 2);
    return { fileName: `soak-${area}.json`, text, questions: operationQuestions(text) };
  });
}
