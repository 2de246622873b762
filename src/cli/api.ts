/**
 * The CLI's HTTP client for a Shelfmark server: the base URL from --api-url or
 * SHELFMARK_API_URL, the key from --api-key or SHELFMARK_API_KEY. Error answers become
 * `CliError`s carrying the server's code and message and the matching exit code.
 */
import { CliError, EXIT, exitCodeOf } from './errors';

export interface ApiOptions {
  apiUrl: string;
  apiKey?: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: RequestInit['body'] | AsyncIterable<Uint8Array>;
  headers?: Record<string, string>;
}

export class ApiClient {
  /** A dashboard session's cookie and CSRF token (keys commands sign in). */
  private session: { cookie: string; csrf: string } | undefined;

  constructor(private readonly options: ApiOptions) {}

  url(path: string, query: RequestOptions['query'] = {}): string {
    const base = this.options.apiUrl.replace(/\/+$/, '');
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Sends a request; a non-2xx answer throws a CliError. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.session) {
      headers.Cookie = this.session.cookie;
      headers['X-CSRF-Token'] = this.session.csrf;
    } else if (this.options.apiKey) {
      headers.Authorization = `Bearer ${this.options.apiKey}`;
    }
    let body = options.body as RequestInit['body'];
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    let res: Response;
    try {
      res = await fetch(this.url(path, options.query), {
        method,
        headers,
        body,
        ...(options.body && isStream(options.body) ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `Could not reach the Shelfmark server at ${this.options.apiUrl} (${cause?.code ?? cause?.message ?? (error as Error).message}). Is it running? Set SHELFMARK_API_URL or --api-url.`,
        EXIT.failed,
      );
    }
    if (!res.ok) throw await errorOf(res);
    return res;
  }

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, options);
    return (await res.json()) as T;
  }

  /**
   * Signs in for the operations API keys may not do (managing keys needs a dashboard
   * session): the user name and password from SHELFMARK_USERNAME and SHELFMARK_PASSWORD.
   */
  async signIn(username: string, password: string): Promise<void> {
    const res = await this.request('POST', '/v2/auth/login', { json: { username, password } });
    const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    const csrf = cookies.find((c) => c.startsWith('shelfmark_csrf='))?.slice('shelfmark_csrf='.length);
    if (!csrf) throw new CliError('The server did not start a session (no CSRF cookie in its answer).', EXIT.failed);
    this.session = { cookie: cookies.join('; '), csrf };
    await res.body?.cancel();
  }

  async signOut(): Promise<void> {
    if (!this.session) return;
    await this.request('POST', '/v2/auth/logout').then(
      (r) => r.body?.cancel(),
      () => undefined,
    );
    this.session = undefined;
  }
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

async function errorOf(res: Response): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let code: string | undefined;
  let message = text.slice(0, 500) || res.statusText;
  try {
    const body = JSON.parse(text) as { error?: string; message?: string };
    code = body.error;
    message = body.message ?? message;
  } catch {
    // not JSON: the text itself is the message
  }
  const retry = res.headers.get('retry-after');
  if (res.status === 429 && retry) message += ` Try again in ${retry} s.`;
  return new CliError(message, exitCodeOf(res.status), code, res.status);
}
