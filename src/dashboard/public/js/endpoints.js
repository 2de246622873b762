// The admin API's paths and shapes in one place, so pages stay independent of them.
const list = (key) => (body) => (Array.isArray(body) ? body : body?.[key] ?? []);

export const KEYS = {
  list: '/admin/keys',
  item: (id) => `/admin/keys/${encodeURIComponent(id)}`,
  items: list('keys'),
  value: (created) => created.value ?? created.key,
};

export const PERMISSIONS = {
  path: '/admin/permissions',
  read: (body) => ({ operations: Object.entries(body.anonymous ?? body).map(([name, allowed]) => ({ name, label: name, allowed: Boolean(allowed) })) }),
  write: (allowed) => ({ anonymous: allowed }),
};

export const CREDENTIALS = {
  list: '/admin/credentials',
  item: (host) => `/admin/credentials/${encodeURIComponent(host)}`,
  read: (body) => new Map(list('credentials')(body).map((c) => [c.host, c])),
};
