// The admin API's paths and response shapes in one place, so pages stay independent of them.
const list = (key) => (body) => (Array.isArray(body) ? body : (body?.[key] ?? []));

/** /v2/admin/keys: the signed-in user's API keys; the value comes only in the POST answer. */
export const KEYS = {
  list: '/admin/keys',
  item: (id) => `/admin/keys/${encodeURIComponent(id)}`,
  items: list('keys'),
  value: (created) => created.value,
};

const PERMISSION_LABELS = {
  add: 'Add Git repositories',
  refresh: 'Refresh libraries',
  upload: 'Upload OpenAPI files',
  policies: 'Read team policies',
  metrics: 'Read usage metrics',
  jobs: 'Read indexing jobs',
};

/** /v2/admin/permissions: { anonymous: { op: boolean }, descriptions: { op: text } }. */
export const PERMISSIONS = {
  path: '/admin/permissions',
  read: (body) => ({
    operations: Object.entries(body.anonymous ?? {}).map(([name, allowed]) => ({
      name,
      label: body.descriptions?.[name] ?? PERMISSION_LABELS[name] ?? name,
      allowed: allowed === true,
    })),
  }),
  write: (allowed) => ({ anonymous: allowed }),
};

/** /v2/admin/credentials: { credentials: [{ host, connected, updatedAt }], hosts }. */
export const CREDENTIALS = {
  list: '/admin/credentials',
  item: (host) => `/admin/credentials/${encodeURIComponent(host)}`,
  read: (body) =>
    new Map(
      list('credentials')(body)
        .filter((c) => c.connected !== false)
        .map((c) => [c.host, c]),
    ),
};

/** /v2/admin/usage (all libraries) and /v2/libs/metrics (one library). */
export const USAGE = {
  summary: '/admin/usage',
  metrics: '/libs/metrics',
  readSummary: (body) => ({
    days: body.days,
    perDay: body.perDay ?? [],
    topLibraries: body.topLibraries ?? [],
    totals: body.totals,
    byKey: body.byKey ?? [],
    byTeam: body.byTeam ?? [],
    zeroResultQueries: body.zeroResultQueries ?? [],
    lowScoreQueries: body.lowScoreQueries ?? [],
  }),
};

/** /v2/policies?teamId=: { teamId, libraryFilters, searchFilterApplied }. */
export const POLICIES = {
  path: '/policies',
  preview: '/policies/preview',
  query: (teamId) => (teamId ? { teamId } : undefined),
  read: (body) => body.libraryFilters ?? body,
};

/** /v2/admin/teams, /v2/admin/users, /v2/admin/plans. */
export const TEAMS = {
  list: '/admin/teams',
  item: (id) => `/admin/teams/${encodeURIComponent(id)}`,
  members: (id) => `/admin/teams/${encodeURIComponent(id)}/members`,
  member: (id, userId) => `/admin/teams/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`,
  items: list('teams'),
};
export const USERS = {
  list: '/admin/users',
  item: (id) => `/admin/users/${encodeURIComponent(id)}`,
  items: list('users'),
};
export const PLANS = { list: '/admin/plans', items: list('plans') };
