/**
 * `shelfmark add repo|openapi|website …`: the three ways to add a library. The server
 * answers when the library is indexed (or after ADD_WAIT_SECONDS with 504 while the job
 * carries on: exit 8, follow it with `shelfmark jobs --watch`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { COMMON_USAGE, output, intOption, parseCommand, type Command } from '../command';
import { CliError, EXIT } from '../errors';
import { followNewJob } from './jobs';

const USAGE = `Usage:
  shelfmark add repo <repository-url> [--host github|gitlab|bitbucket|git] [--private] [--token <t>]
                     [--skip-version-filtering] [--generate-docs]
  shelfmark add openapi <file.json|yaml> [--title <t>] [--description <d>] [--force] [--public]
  shelfmark add website <url> [--scope page|subpages|hostname] [--max-pages <n>] [--max-depth <n>]
                     [--include <pattern>]... [--exclude <pattern>]...

Adds a library and waits until it is indexed. The repository's host is taken from its URL
(github.com, gitlab.com, bitbucket.org; else "git") unless --host says otherwise.
Prints {libraryName, message}; exit 8 when the server stopped waiting (the job goes on).

${COMMON_USAGE}`;

interface AddResponse {
  libraryName: string;
  message: string;
}

export const addCommand: Command = {
  name: 'add',
  summary: 'add a Git repository, an OpenAPI file or a website',
  usage: USAGE,
  async run(argv) {
    const [kind, ...rest] = argv;
    if (kind === 'repo') return addRepo(rest);
    if (kind === 'openapi') return addOpenApi(rest);
    if (kind === 'website') return addWebsite(rest);
    if (kind === '--help' || kind === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    throw new CliError(`add: ${kind ? `unknown kind "${kind}"` : 'say what to add'} (repo, openapi or website).\n\n${USAGE}`, EXIT.usage);
  },
};

const HOSTS: Record<string, string> = { 'github.com': 'github', 'gitlab.com': 'gitlab', 'bitbucket.org': 'bitbucket' };

/** The `<git_host>` path segment for a repository URL. */
export function hostOf(repoUrl: string): string {
  try {
    return HOSTS[new URL(repoUrl).hostname.toLowerCase()] ?? 'git';
  } catch {
    return 'git';
  }
}

async function addRepo(argv: string[]): Promise<void> {
  const p = parseCommand(
    addCommand,
    argv,
    {
      host: { type: 'string' },
      private: { type: 'boolean' },
      token: { type: 'string' },
      'skip-version-filtering': { type: 'boolean' },
      'generate-docs': { type: 'boolean' },
    },
    { min: 1, max: 1 },
  );
  const url = p.positionals[0];
  const host = (p.values.host as string | undefined) ?? hostOf(url);
  const body = {
    docsRepoUrl: url,
    ...(p.values.token ? { gitToken: p.values.token } : {}),
    ...(p.values.private ? { private: true } : {}),
    ...(p.values['skip-version-filtering'] ? { skipVersionFiltering: true } : {}),
    ...(p.values['generate-docs'] ? { generateDocs: true } : {}),
  };
  const result = await followNewJob(p, () => p.api.json<AddResponse>('POST', `/v2/add/repo/${encodeURIComponent(host)}`, { json: body }));
  output(p, result, () => result.message);
}

async function addOpenApi(argv: string[]): Promise<void> {
  const p = parseCommand(
    addCommand,
    argv,
    { title: { type: 'string' }, description: { type: 'string' }, force: { type: 'boolean' }, public: { type: 'boolean' } },
    { min: 1, max: 1 },
  );
  const file = p.positionals[0];
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, EXIT.usage);
  }
  const form = new FormData();
  form.set('openapiFile', new Blob([data]), path.basename(file));
  if (p.values.title) form.set('libraryTitle', String(p.values.title));
  if (p.values.description) form.set('description', String(p.values.description));
  if (p.values.force) form.set('force', 'true');
  if (p.values.public) form.set('public', 'true');
  const result = await p.api.json<AddResponse>('POST', '/v2/add/openapi-upload', { body: form });
  output(p, result, () => result.message);
}

async function addWebsite(argv: string[]): Promise<void> {
  const p = parseCommand(
    addCommand,
    argv,
    {
      scope: { type: 'string' },
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
    },
    { min: 1, max: 1 },
  );
  const scope = p.values.scope as string | undefined;
  if (scope !== undefined && !['page', 'subpages', 'hostname'].includes(scope)) throw new CliError('--scope must be page, subpages or hostname.', EXIT.usage);
  const values = p.values as Record<string, unknown>;
  const body = {
    url: p.positionals[0],
    ...(scope ? { scope } : {}),
    ...(values['max-pages'] !== undefined ? { maxPages: intOption(values['max-pages'] as string, 'max-pages', { min: 1, max: 1_000_000 }) } : {}),
    ...(values['max-depth'] !== undefined ? { maxDepth: intOption(values['max-depth'] as string, 'max-depth', { min: 0, max: 1000 }) } : {}),
    ...(values.include ? { include: values.include } : {}),
    ...(values.exclude ? { exclude: values.exclude } : {}),
  };
  let result: AddResponse;
  try {
    result = await followNewJob(p, () => p.api.json<AddResponse>('POST', '/v2/add/website', { json: body }));
  } catch (error) {
    // A server without the website source answers "no route" (404 not_found); a library
    // that is not found would be library_not_found.
    if (error instanceof CliError && error.status === 404 && error.code === 'not_found') {
      throw new CliError(
        `This server cannot add websites yet (POST /v2/add/website answered 404): upgrade it to a release with the website source, or add the docs' Git repository with \`shelfmark add repo\`.`,
        EXIT.notFound,
        error.code,
        404,
      );
    }
    throw error;
  }
  output(p, result, () => result.message);
}
