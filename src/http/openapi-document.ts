/**
 * Our own OpenAPI 3.1 description of the HTTP API, served at `/v2/openapi.json`. A test
 * compares it with the routes the app really registers, so it stays true.
 */
import { ERROR_CODES } from '../errors';

type Schema = Record<string, unknown>;

interface Op {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  /** Public unless the global API_KEY is set. */
  public?: boolean;
  query?: Record<string, { schema: Schema; required?: boolean; description: string }>;
  body?: Schema;
  multipart?: Schema;
  ok?: Schema;
  text?: boolean;
  /** Statuses named besides 200 and the default error (e.g. 413 for bodies over a limit). */
  statuses?: Record<string, string>;
}

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, required });
/** The JSON body limit of koa-bodyparser (app.ts): larger bodies answer 413 payload_too_large. */
const JSON_LIMIT = { '413': 'payload_too_large: the JSON body is larger than 1 MB' };
const teamIdQuery = { teamId: { schema: str, description: "Address this team's private copy (admins and the team's members); without it the caller's team's copy, else the public one" } };

const OPS: Op[] = [
  { method: 'get', path: '/healthz', summary: 'Store health from real bounded reads, with each store\'s latency (200 when Elasticsearch and MongoDB answer, 503 naming the one down)', tag: 'Health', public: true },
  { method: 'get', path: '/readyz', summary: 'The same as /healthz (ready to serve)', tag: 'Health', public: true },
  { method: 'get', path: '/livez', summary: 'The process serves (no store I/O)', tag: 'Health', public: true },
  { method: 'get', path: '/ping', summary: 'MCP health check: {"status":"ok","message":"pong"}', tag: 'Health', public: true },
  {
    method: 'get', path: '/v2/libs/search', summary: 'Search the library catalogue (Context7 shape)', tag: 'Search', public: true,
    query: { libraryName: { schema: str, required: true, description: 'Library name to resolve' }, query: { schema: str, description: 'What the caller wants to do (ranks by content)' } },
    ok: obj({ results: { type: 'array', items: ref('LibrarySearchResult') }, searchFilterApplied: bool }),
  },
  {
    method: 'get', path: '/v2/context', summary: 'Documentation context for a question within a token budget', tag: 'Context', public: true, text: true,
    query: {
      libraryId: { schema: str, required: true, description: '/owner/repo, optionally /version or @version' },
      query: { schema: str, required: true, description: 'The question (`topic` is accepted for older clients)' },
      tokens: { schema: { type: 'integer', minimum: 100, maximum: 100000, default: 5000 }, description: 'Token budget (whole snippets only)' },
      type: { schema: { type: 'string', enum: ['txt', 'json'], default: 'txt' }, description: 'Response format' },
    },
    ok: ref('ContextJson'),
  },
  { method: 'get', path: '/api/v1/{owner}/{repo}', summary: 'Context7 v1 context (topic, tokens, type)', tag: 'Context', public: true, text: true },
  { method: 'get', path: '/api/v1/{owner}/{repo}/{version}', summary: 'Context7 v1 context of a version', tag: 'Context', public: true, text: true },
  { method: 'get', path: '/v2/add/hosts', summary: "The Git hosts' base URLs and the allowed URL prefixes for other Git servers (for the add form)", tag: 'Add Library' },
  { method: 'post', path: '/v2/add/repo/{host}', summary: 'Add a Git repository (host: github, gitlab, bitbucket, git); a private one goes to the caller\'s team', tag: 'Add Library', body: ref('AddRepoRequest'), ok: ref('AddLibraryResponse'), statuses: JSON_LIMIT },
  {
    method: 'post', path: '/v2/add/openapi-upload', summary: "Upload an OpenAPI specification (JSON or YAML, at most 10 MB); private to the caller's team unless public=true (admins)", tag: 'Add Library',
    multipart: obj({
      openapiFile: { type: 'string', format: 'binary' },
      libraryTitle: { type: 'string', maxLength: 200 },
      description: { type: 'string', maxLength: 2000 },
      force: { type: 'string', enum: ['true', 'false'], description: 'Replace the library of the same id in the same scope (your team, or public)' },
      public: { type: 'string', enum: ['true', 'false'], description: 'Publish to every caller (admins only); default false when the caller has a team' },
    }, ['openapiFile']),
    ok: ref('AddLibraryResponse'),
    statuses: { '400': 'validation_error: a malformed multipart body or a bad field (named in the message)', '413': 'payload_too_large: openapiFile over 10 MB, or a text field over 64 KB' },
  },
  {
    method: 'post', path: '/v2/add/website', summary: 'Crawl a website into a library /websites/<host>[_<path>] (robots.txt, sitemaps, canonical links, Markdown alternates; conditional refresh); headers are kept encrypted and never shown', tag: 'Add Library',
    body: obj({ url: { type: 'string', format: 'uri' }, scope: { type: 'string', enum: ['page', 'subpages', 'hostname'], default: 'subpages' }, maxPages: { type: 'integer', minimum: 1, maximum: 5000, default: 200 }, maxDepth: { type: 'integer', minimum: 0, maximum: 20, default: 5 }, include: { type: 'array', items: str }, exclude: { type: 'array', items: str }, headers: { type: 'object', additionalProperties: str }, private: bool }, ['url']),
    ok: ref('AddLibraryResponse'), statuses: JSON_LIMIT,
  },
  { method: 'post', path: '/v2/add/llmstxt', summary: 'Index an llms.txt (followed to the pages it lists) or an llms-full.txt into /llmstxt/<host>[_<path>]', tag: 'Add Library', body: obj({ url: { type: 'string', format: 'uri' }, private: bool }, ['url']), ok: ref('AddLibraryResponse'), statuses: JSON_LIMIT },
  {
    method: 'post', path: '/v2/add/archive', summary: "Upload built docs: a zip or tar.gz of a static site or Markdown folder (at most 50 MB; links, paths leaving the archive, device files and decompression bombs refused) into /archives/<slug>; private to the caller's team unless public=true (admins)", tag: 'Add Library',
    multipart: obj({
      archiveFile: { type: 'string', format: 'binary' },
      libraryTitle: { type: 'string', maxLength: 200 },
      description: { type: 'string', maxLength: 2000 },
      force: { type: 'string', enum: ['true', 'false'], description: 'Replace the archive library of the same id in the same scope' },
      public: { type: 'string', enum: ['true', 'false'], description: 'Publish to every caller (admins only)' },
    }, ['archiveFile']),
    ok: ref('AddLibraryResponse'),
    statuses: { '400': 'validation_error: not a zip/tar.gz, an unsafe entry or a decompression bomb (named in the message)', '413': 'payload_too_large: archiveFile over 50 MB, or its files over the decompressed total' },
  },
  { method: 'post', path: '/v2/refresh', summary: 'Re-fetch the latest docs of a library (or a tag with branch)', tag: 'Refresh', body: obj({ libraryName: str, branch: str, gitToken: str }, ['libraryName']), ok: ref('AddLibraryResponse'), statuses: JSON_LIMIT },
  { method: 'post', path: '/v1/refresh', summary: 'Refresh (older path)', tag: 'Refresh', body: obj({ libraryName: str, branch: str, gitToken: str }, ['libraryName']), ok: ref('AddLibraryResponse'), statuses: JSON_LIMIT },
  { method: 'get', path: '/v2/jobs', summary: 'Indexing jobs', tag: 'Jobs' },
  { method: 'get', path: '/v2/jobs/{id}', summary: 'One job with its progress and log', tag: 'Jobs' },
  { method: 'delete', path: '/v2/jobs/{id}', summary: "Cancel a job that has not ended; an ended job's record is removed", tag: 'Jobs' },
  { method: 'get', path: '/v2/libraries', summary: 'The catalogue with builds: every copy the caller may see (public ones and its teams\' private ones; admins: all, each with its teamId)', tag: 'Libraries' },
  { method: 'get', path: '/v2/libraries/{owner}/{repo}', summary: 'A library with its builds and recent jobs', tag: 'Libraries', query: teamIdQuery },
  { method: 'patch', path: '/v2/libraries/{owner}/{repo}', summary: 'Set trustScore, aliases or the refresh schedule (admins)', tag: 'Libraries', query: teamIdQuery, body: obj({ trustScore: { type: 'number', minimum: 0, maximum: 10 }, aliases: { type: 'array', items: str }, schedule: { description: '"default" (the source kind\'s REFRESH_DEFAULT_HOURS), "never", or hours between refreshes (1-8760)', oneOf: [{ type: 'string', enum: ['default', 'never'] }, { type: 'integer', minimum: 1, maximum: 8760 }] } }), statuses: JSON_LIMIT },
  { method: 'post', path: '/v2/libraries/{owner}/{repo}/webhook', summary: 'Create (or replace) the push webhook of a Git library (admins); the answer holds its secret, shown only this once', tag: 'Libraries', query: teamIdQuery, body: obj({ host: { type: 'string', enum: ['github', 'gitlab', 'bitbucket', 'git'], description: "The host's signature scheme (default: the library's source)" } }), statuses: JSON_LIMIT },
  { method: 'post', path: '/v2/webhooks/{host}', summary: "A host's push delivery (no key: verified by the host's own signature with the hook's secret: GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token, Bitbucket X-Hub-Signature, git X-Shelfmark-Signature HMAC-SHA256). A push to the tracked branch queues a refresh (202); a replayed delivery id or another ref is ignored (200); an unverified delivery or unknown library is 401 invalid_signature", tag: 'Refresh', public: true, query: { library: { schema: str, required: true, description: 'The library key given when the hook was created' } }, body: { type: 'object' }, statuses: JSON_LIMIT },
  { method: 'delete', path: '/v2/libraries/{owner}/{repo}', summary: 'Delete a library and its snippets', tag: 'Libraries', query: teamIdQuery },
  {
    method: 'get', path: '/v2/libraries/{owner}/{repo}/export', summary: 'Stream a bundle of the library (gzip NDJSON, docs/BUNDLES.md): every built version, or one', tag: 'Libraries',
    query: { ...teamIdQuery, version: { schema: str, description: 'Only this version or tag' } },
  },
  {
    method: 'post', path: '/v2/libraries/import', summary: 'Import a bundle (admins; the body is the bundle file, application/gzip) and publish it in one step; importing it again changes nothing', tag: 'Libraries',
    query: { force: { schema: { type: 'string', enum: ['true', 'false'] }, description: 'Replace versions served from a newer build' } },
    ok: obj({ libraryName: str, status: { type: 'string', enum: ['imported', 'unchanged'] }, message: str, versions: { type: 'array', items: obj({ version: str, status: str, snippets: int }) } }),
    statuses: { '400': 'validation_error: not a bundle, an unknown format version, a truncated or damaged bundle, or a failed checksum', '409': 'conflict: a version is served from a newer build (send force=true), or a build of it is running', '413': 'payload_too_large: over BUNDLE_MAX_BYTES' },
  },
  { method: 'get', path: '/v2/policies', summary: "The caller's team policy (Context7 shape)", tag: 'Policies', ok: ref('Policy') },
  { method: 'post', path: '/v2/policies/preview', summary: 'Which libraries the team would see under a policy change (the PATCH body; nothing is saved)', tag: 'Policies' },
  { method: 'patch', path: '/v2/policies', summary: "Change the caller's team policy", tag: 'Policies', body: ref('Policy'), ok: ref('Policy') },
  { method: 'get', path: '/v2/libs/metrics', summary: 'Requests per day per channel, tokens served, top queries', tag: 'Metrics', query: { libraryId: { schema: str, required: true, description: 'Library id' }, days: { schema: { type: 'integer', minimum: 1, maximum: 90, default: 30 }, description: 'Window' } } },
  { method: 'post', path: '/v2/auth/login', summary: 'Dashboard login (sets the session and CSRF cookies)', tag: 'Auth', public: true, body: obj({ username: str, password: str }, ['username', 'password']) },
  { method: 'post', path: '/v2/auth/logout', summary: 'End the session', tag: 'Auth' },
  { method: 'get', path: '/v2/auth/me', summary: 'The signed-in user', tag: 'Auth' },
  { method: 'patch', path: '/v2/auth/me', summary: 'Switch the default team', tag: 'Auth' },
  { method: 'put', path: '/v2/auth/password', summary: 'Change the credentials', tag: 'Auth', body: obj({ currentPassword: str, newPassword: str, username: str }, ['currentPassword', 'newPassword']) },
  { method: 'get', path: '/v2/admin/keys', summary: "The caller's API keys", tag: 'Admin' },
  { method: 'post', path: '/v2/admin/keys', summary: 'Create an API key (the value is shown once)', tag: 'Admin', body: obj({ name: str }, ['name']) },
  { method: 'delete', path: '/v2/admin/keys/{id}', summary: 'Delete (revoke) an API key', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/users', summary: 'Users', tag: 'Admin' },
  { method: 'post', path: '/v2/admin/users', summary: 'Create a user', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/users/{id}', summary: 'A user', tag: 'Admin' },
  { method: 'patch', path: '/v2/admin/users/{id}', summary: "Change a user's role", tag: 'Admin' },
  { method: 'delete', path: '/v2/admin/users/{id}', summary: 'Delete a user', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/teams', summary: 'Teams', tag: 'Admin' },
  { method: 'post', path: '/v2/admin/teams', summary: 'Create a team', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/teams/{id}', summary: 'A team with its members', tag: 'Admin' },
  { method: 'patch', path: '/v2/admin/teams/{id}', summary: "Change a team's name or plan", tag: 'Admin' },
  { method: 'delete', path: '/v2/admin/teams/{id}', summary: 'Delete a team', tag: 'Admin' },
  { method: 'post', path: '/v2/admin/teams/{id}/members', summary: 'Add a member', tag: 'Admin' },
  { method: 'patch', path: '/v2/admin/teams/{id}/members/{userId}', summary: "Change a member's team role", tag: 'Admin' },
  { method: 'delete', path: '/v2/admin/teams/{id}/members/{userId}', summary: 'Remove a member', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/plans', summary: 'Plans', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/permissions', summary: 'Operations allowed without authentication', tag: 'Admin' },
  { method: 'put', path: '/v2/admin/permissions', summary: 'Change the anonymous permissions', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/usage', summary: 'Usage across libraries', tag: 'Admin' },
  { method: 'get', path: '/v2/admin/credentials', summary: 'Hosting-account connections (tokens never returned)', tag: 'Admin' },
  { method: 'put', path: '/v2/admin/credentials/{host}', summary: 'Connect a hosting account (token stored encrypted)', tag: 'Admin', body: obj({ token: str }, ['token']) },
  { method: 'delete', path: '/v2/admin/credentials/{host}', summary: 'Disconnect a hosting account', tag: 'Admin' },
  { method: 'post', path: '/mcp', summary: 'MCP Streamable HTTP endpoint (JSON-RPC; key in SHELFMARK_API_KEY, Authorization or X-API-Key)', tag: 'MCP', public: true },
  { method: 'get', path: '/v2/openapi.json', summary: 'This document', tag: 'Health', public: true },
];


/** The operations the document describes, as `METHOD /path` (for the test that keeps it true). */
export function documentedOperations(): string[] {
  return OPS.map((o) => `${o.method.toUpperCase()} ${o.path}`);
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPS) {
    const params = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: str })),
      ...Object.entries(op.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: q.required === true, schema: q.schema, description: q.description })),
    ];
    const content: Record<string, unknown> = {};
    if (op.ok) content['application/json'] = { schema: op.ok };
    if (op.text) content['text/plain'] = { schema: str };
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      ...(op.public ? { security: [{}, { bearer: [] }] } : {}),
      ...(params.length ? { parameters: params } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      ...(op.multipart ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: op.multipart } } } } : {}),
      responses: {
        '200': { description: 'OK', ...(Object.keys(content).length ? { content } : {}) },
        ...Object.fromEntries(Object.entries(op.statuses ?? {}).map(([status, description]) => [status, { description, content: { 'application/json': { schema: ref('Error') } } }])),
        default: { description: 'Error', content: { 'application/json': { schema: ref('Error') } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Shelfmark API', version: '2.0.0', description: 'Context7-compatible library documentation API. Also mounted under /api/v2. Errors are { error, message } with the codes of the Error schema; a body over a limit (JSON: 1 MB; an OpenAPI upload: 10 MB) answers 413 payload_too_large.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API keys start with smk_' } },
      schemas: {
        Error: obj({ error: { type: 'string', enum: [...ERROR_CODES] }, message: str }, ['error', 'message']),
        AddRepoRequest: obj({ docsRepoUrl: { type: 'string', format: 'uri' }, gitToken: str, private: bool, skipVersionFiltering: bool, generateDocs: bool }, ['docsRepoUrl']),
        AddLibraryResponse: obj({ libraryName: str, message: str }, ['libraryName', 'message']),
        LibrarySearchResult: obj({ id: str, title: str, description: str, branch: str, lastUpdateDate: str, state: str, totalTokens: int, totalSnippets: int, stars: int, trustScore: { type: 'number' }, benchmarkScore: { type: 'number' }, versions: { type: 'array', items: str } }),
        ContextJson: obj({
          codeSnippets: { type: 'array', items: obj({ codeTitle: str, codeDescription: str, codeLanguage: str, codeTokens: int, codeId: str, pageTitle: str, codeList: { type: 'array', items: obj({ language: str, code: str }) } }) },
          infoSnippets: { type: 'array', items: obj({ pageId: str, breadcrumb: str, content: str, contentTokens: int }) },
          snippets: { type: 'array', items: obj({ kind: { type: 'string', enum: ['code', 'info'] }, title: str, tokens: int, score: { type: 'number' }, source: obj({ path: str, url: str, startLine: int }) }) },
        }),
        Policy: obj({ libraryFilters: obj({ mode: { type: 'string', enum: ['quality', 'select'] }, blockedLibraries: { type: 'array', items: str }, exceptedLibraries: { type: 'array', items: str }, minTrustScore: { type: ['number', 'null'] }, allowedLibraries: { type: 'array', items: str }, sourceTypes: { type: 'array', items: str } }) }),
      },
    },
  };
}
