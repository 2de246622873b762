// The JSON API client: same origin, the session cookie rides along, and every write
// echoes the readable CSRF cookie in X-CSRF-Token (double-submit).

/** Where the server is mounted: the dashboard lives at <root>/dashboard/. */
export const ROOT = location.pathname.replace(/\/dashboard(\/.*)?$/, '');
export const API = `${ROOT}/v2`;

export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message || `Request failed (${status}).`);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

function readCookie(name) {
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return '';
}

let onUnauthorized = () => {};
/** Called when a request answers 401 outside of login (the session ended). */
export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

/**
 * request(method, path, { json, form, query, signal, text, headers }) → parsed JSON (or text).
 * `path` is relative to /v2. Errors become ApiError with the API's code and message.
 */
export async function request(method, path, options = {}) {
  const url = new URL(`${API}${path}`, location.origin);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const headers = { Accept: options.text ? 'text/plain, application/json' : 'application/json', ...(options.headers ?? {}) };
  let body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  if (method !== 'GET' && method !== 'HEAD') {
    const token = readCookie('shelfmark_csrf');
    if (token) headers['X-CSRF-Token'] = token;
  }
  let res;
  try {
    res = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal, cache: 'no-store' });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check that it is running and try again.');
  }
  const type = res.headers.get('content-type') ?? '';
  const payload = type.includes('application/json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const code = payload && typeof payload === 'object' ? payload.error : undefined;
    const message = payload && typeof payload === 'object' ? payload.message : typeof payload === 'string' && payload.length < 300 ? payload : '';
    const err = new ApiError(res.status, code ?? `http_${res.status}`, message, payload && typeof payload === 'object' ? payload.field : undefined);
    if (res.status === 401 && !options.noAuthRedirect) onUnauthorized(err);
    throw err;
  }
  return payload;
}

export const get = (path, query, options = {}) => request('GET', path, { ...options, query });
export const post = (path, json, options = {}) => request('POST', path, { ...options, json });
export const put = (path, json, options = {}) => request('PUT', path, { ...options, json });
export const patch = (path, json, options = {}) => request('PATCH', path, { ...options, json });
export const del = (path, options = {}) => request('DELETE', path, options);

/** `/owner/repo` → `/owner/repo` path segments, each encoded. */
export function libraryPath(id) {
  return String(id).split('/').filter(Boolean).map(encodeURIComponent).join('/');
}
