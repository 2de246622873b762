/** `shelfmark project …`: projects made from lockfiles, whose pinned versions answer context. */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, EXIT } from '../errors';
import { COMMON_USAGE, output, parseCommand, table, type Command, type Parsed } from '../command';

const USAGE = `Usage: shelfmark project create <lockfile | --url <url>> [--name <name>] [--team <teamId>]
       shelfmark project upload <projectId> <lockfile | --url <url>>   # a new version of a lockfile
       shelfmark project refresh <projectId>       # fetch the lockfiles given by URL again
       shelfmark project remap <projectId>         # map the packages again (after adding libraries)
       shelfmark project show <projectId> | list | delete <projectId>

A project is a code base's lockfiles (package-lock.json, pnpm-lock.yaml, yarn.lock,
requirements.txt, poetry.lock, uv.lock, go.mod, Cargo.lock, pom.xml, Gemfile.lock): its
packages are mapped to libraries of the catalogue, and context asked with --project (or with an
API key bound to the project) answers at the version the lockfile pins. show lists the
packages no library matches, each with the call that adds it.

${COMMON_USAGE}`;

interface ProjectJson {
  id: string;
  name: string;
  lockfiles: Array<{ filename: string; kind: string; packages: number; url: string | null }>;
  mapping: { packages: number; mapped: number; direct: number; directMapped: number; rate: number };
  pins: Array<{ libraryId: string; version: string; package: string; lockfile: string }>;
  unmatched?: Array<{ ecosystem: string; name: string; version: string; add: { method: string; path: string; body: object; then: string } }>;
  refreshed?: { changed: string[]; unchanged: string[]; failed: Array<{ filename: string; message: string }> };
}

function describe(p: ProjectJson): string {
  const lines = [
    `${p.id}  ${p.name}`,
    `  lockfiles: ${p.lockfiles.map((l) => `${l.filename} (${l.packages} packages${l.url ? `, from ${l.url}` : ''})`).join(', ')}`,
  ];
  lines.push(
    `  mapped: ${p.mapping.directMapped}/${p.mapping.direct} direct packages, ${p.mapping.mapped}/${p.mapping.packages} in all (rate ${p.mapping.rate})`,
  );
  if (p.pins.length > 0)
    lines.push(
      '',
      table(
        ['library', 'pinned', 'package', 'lockfile'],
        p.pins.map((x) => [x.libraryId, x.version, x.package, x.lockfile]),
      ),
    );
  if (p.refreshed)
    lines.push(
      '',
      `refreshed: ${p.refreshed.changed.join(', ') || 'nothing changed'}${p.refreshed.failed.map((f) => `\n  ${f.filename}: ${f.message}`).join('')}`,
    );
  if (p.unmatched && p.unmatched.length > 0) {
    lines.push(
      '',
      `${p.unmatched.length} package(s) no library matches; to add one: ${p.unmatched[0]?.add.method} ${p.unmatched[0]?.add.path}, then ${p.unmatched[0]?.add.then}`,
    );
    lines.push(
      table(
        ['ecosystem', 'package', 'version'],
        p.unmatched.slice(0, 30).map((u) => [u.ecosystem, u.name, u.version]),
      ),
    );
  }
  return lines.join('\n');
}

/** The lockfile as a form (a file) or JSON (a URL). */
function lockfileBody(p: Parsed, file: string | undefined): { body: FormData } | { json: object } {
  const url = p.values.url as string | undefined;
  const extra = { ...(p.values.name ? { name: String(p.values.name) } : {}), ...(p.values.team ? { teamId: String(p.values.team) } : {}) };
  if (url && file) throw new CliError('Give a lockfile or --url, not both.', EXIT.usage);
  if (url) return { json: { url, ...extra } };
  if (!file) throw new CliError(`project: a lockfile or --url is needed.\n\n${USAGE}`, EXIT.usage);
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
  }
  const form = new FormData();
  form.set('lockfile', new Blob([data]), path.basename(file));
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  return { body: form };
}

export const projectCommand: Command = {
  name: 'project',
  summary: 'projects made from lockfiles: their pinned versions answer context',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(projectCommand, argv, { url: { type: 'string' }, name: { type: 'string' }, team: { type: 'string' } }, { min: 1, max: 3 });
    const [action, first, second] = p.positionals;
    const id = () => {
      if (!first) throw new CliError(`project ${action}: the project id is needed.\n\n${USAGE}`, EXIT.usage);
      return encodeURIComponent(first);
    };
    let result: ProjectJson | { projects: ProjectJson[] } | undefined;
    switch (action) {
      case 'create':
        result = await p.api.json<ProjectJson>('POST', '/v2/projects', lockfileBody(p, first));
        break;
      case 'upload':
        result = await p.api.json<ProjectJson>('PUT', `/v2/projects/${id()}/lockfile`, lockfileBody(p, second));
        break;
      case 'refresh':
      case 'remap':
        result = await p.api.json<ProjectJson>('POST', `/v2/projects/${id()}/${action}`);
        break;
      case 'show':
        result = await p.api.json<ProjectJson>('GET', `/v2/projects/${id()}`);
        break;
      case 'list':
        result = await p.api.json<{ projects: ProjectJson[] }>('GET', '/v2/projects');
        break;
      case 'delete':
        await p.api.request('DELETE', `/v2/projects/${id()}`);
        output(p, { id: first, deleted: true }, () => `Deleted ${first}.`);
        return;
      default:
        throw new CliError(`project: unknown action "${action ?? ''}".\n\n${USAGE}`, EXIT.usage);
    }
    const value = result;
    output(p, value, () =>
      'projects' in value
        ? table(
            ['id', 'name', 'pins', 'rate'],
            value.projects.map((x) => [x.id, x.name, String(x.pins.length), String(x.mapping.rate)]),
          )
        : describe(value),
    );
  },
};
