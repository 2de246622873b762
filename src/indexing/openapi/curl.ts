/**
 * A curl command for an operation: the first server URL, path parameters as `{name}`, the
 * declared authentication as environment variables ($TOKEN, $API_KEY), required query and
 * header parameters, and a request body from the author's example or generated from the schema.
 */
import { exampleFromSchema } from './examples';
import { asArray, asRecord, asString, type JsonRecord } from './json';
import type { ApiOperation, FormField } from './operations';
import { followRefs } from './refs';
import type { OpenApiSpecVersion } from './types';

const FALLBACK_ORIGIN = 'https://api.example.com';

/** How one security scheme shows up in a request. */
export type AuthHint =
  | { kind: 'header'; name: string; value: string }
  | { kind: 'query'; name: string; value: string }
  | { kind: 'cookie'; name: string; value: string }
  | { kind: 'basic' }
  | { kind: 'mutualTLS' };

/** The security schemes a document declares (Swagger `securityDefinitions`, OpenAPI `components.securitySchemes`). */
export function securitySchemes(doc: JsonRecord, specVersion: OpenApiSpecVersion): [string, JsonRecord][] {
  const raw = specVersion === '2.0' ? doc.securityDefinitions : asRecord(doc.components)?.securitySchemes;
  return Object.entries(asRecord(raw) ?? {}).flatMap(([name, value]) => {
    const scheme = followRefs(doc, value).value;
    return scheme ? [[name, scheme] as [string, JsonRecord]] : [];
  });
}

/** How a request carries the credentials of one scheme. */
export function authHint(scheme: JsonRecord): AuthHint | undefined {
  const type = asString(scheme.type)?.toLowerCase();
  const name = asString(scheme.name) ?? 'api_key';
  if (type === 'apikey') {
    if (scheme.in === 'query') return { kind: 'query', name, value: '$API_KEY' };
    if (scheme.in === 'cookie') return { kind: 'cookie', name, value: '$API_KEY' };
    return { kind: 'header', name, value: '$API_KEY' };
  }
  if (type === 'basic') return { kind: 'basic' };
  if (type === 'http') {
    const httpScheme = asString(scheme.scheme)?.toLowerCase() ?? 'bearer';
    if (httpScheme === 'basic') return { kind: 'basic' };
    const label = httpScheme === 'bearer' ? 'Bearer' : (asString(scheme.scheme) ?? 'Bearer');
    return { kind: 'header', name: 'Authorization', value: `${label} $TOKEN` };
  }
  if (type === 'oauth2' || type === 'openidconnect') return { kind: 'header', name: 'Authorization', value: 'Bearer $TOKEN' };
  if (type === 'mutualtls') return { kind: 'mutualTLS' };
  return undefined;
}

/** The hints of the operation's first security requirement (its own, else the document's). */
export function operationAuth(doc: JsonRecord, specVersion: OpenApiSpecVersion, op: ApiOperation): AuthHint[] {
  const requirements = asArray(op.operation.security ?? doc.security);
  const first = asRecord(requirements[0]);
  if (!first) return [];
  const schemes = new Map(securitySchemes(doc, specVersion));
  return Object.keys(first).flatMap((name) => {
    const scheme = schemes.get(name);
    const hint = scheme && authHint(scheme);
    return hint ? [hint] : [];
  });
}

/** The base URL requests go to, without a trailing slash. */
export function baseUrl(doc: JsonRecord, specVersion: OpenApiSpecVersion, op?: ApiOperation): string {
  if (specVersion === '2.0') {
    const scheme = asString(asArray(op?.operation.schemes ?? doc.schemes)[0]) ?? 'https';
    const host = asString(doc.host);
    const basePath = (asString(doc.basePath) ?? '').replace(/\/+$/, '');
    return host ? `${scheme}://${host}${basePath}` : `${FALLBACK_ORIGIN}${basePath}`;
  }
  const servers = asArray(op?.operation.servers ?? op?.pathItem.servers ?? doc.servers);
  const server = asRecord(servers[0]);
  const url = server ? serverUrl(server) : '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url.replace(/\/+$/, '');
  const relative = url.replace(/^\.?\/?/, '').replace(/\/+$/, '');
  return relative ? `${FALLBACK_ORIGIN}/${relative}` : FALLBACK_ORIGIN;
}

/** A server's URL with its variables replaced by their defaults. */
export function serverUrl(server: JsonRecord): string {
  const variables = asRecord(server.variables) ?? {};
  return String(server.url ?? '').replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = asRecord(variables[name]);
    const value = variable?.default ?? asArray(variable?.enum)[0];
    return value === undefined ? whole : String(value);
  });
}

/** The curl command for `op`. */
export function buildCurl(doc: JsonRecord, specVersion: OpenApiSpecVersion, op: ApiOperation): string {
  const auth = operationAuth(doc, specVersion, op);
  const query: string[] = [];
  const authQuery: string[] = [];
  const lines: string[] = [];
  for (const hint of auth) {
    if (hint.kind === 'header') lines.push(`-H "${hint.name}: ${hint.value}"`);
    else if (hint.kind === 'query') authQuery.push(`${hint.name}=${hint.value}`);
    else if (hint.kind === 'cookie') lines.push(`-b "${hint.name}=${hint.value}"`);
    else if (hint.kind === 'basic') lines.push('-u "$USERNAME:$PASSWORD"');
    else lines.push('--cert client.crt --key client.key');
  }
  for (const p of op.parameters) {
    if (!p.required) continue;
    const value = p.example === undefined ? `{${p.name}}` : scalarText(p.example);
    if (p.in === 'query') query.push(`${p.name}=${p.example === undefined ? value : encodeURIComponent(value)}`);
    else if (p.in === 'header') lines.push(`-H "${p.name}: ${shellDouble(value)}"`);
    else if (p.in === 'cookie') lines.push(`-b "${p.name}=${shellDouble(value)}"`);
  }
  lines.push(...bodyLines(doc, op));
  query.push(...authQuery);
  const url = `${baseUrl(doc, specVersion, op)}${op.path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const method = op.method.toUpperCase();
  const verb = method === 'GET' ? '' : method === 'HEAD' ? '--head ' : `-X ${method} `;
  return [`curl ${verb}"${shellDouble(url)}"`, ...lines.map((l) => `  ${l}`)].join(' \\\n');
}

function bodyLines(doc: JsonRecord, op: ApiOperation): string[] {
  const body = op.body;
  if (!body || (['GET', 'HEAD'].includes(op.method.toUpperCase()) && !body.required)) return [];
  if (body.mediaType === 'multipart/form-data')
    return formLines(body.formFields, (f) => (f.file ? `-F "${f.name}=@${fileName(f.name)}"` : `-F "${f.name}=${shellDouble(sampleText(f))}"`));
  if (body.mediaType === 'application/x-www-form-urlencoded') {
    return [`-H "Content-Type: ${body.mediaType}"`, ...formLines(body.formFields, (f) => `--data-urlencode "${f.name}=${shellDouble(sampleText(f))}"`)];
  }
  if (/[/+]json\b/.test(body.mediaType) || body.mediaType === '*/*') {
    const example = body.example ?? exampleFromSchema(doc, body.schema, { mode: 'request' }) ?? {};
    const json = typeof example === 'string' ? example : JSON.stringify(example, null, 2);
    return [
      `-H "Content-Type: ${body.mediaType === '*/*' ? 'application/json' : body.mediaType}"`,
      `-d '${json.replace(/'/g, "'\\''").replace(/\n/g, '\n  ')}'`,
    ];
  }
  return [`-H "Content-Type: ${body.mediaType}"`, '--data-binary @body.bin'];
}

function formLines(fields: FormField[], line: (f: FormField) => string): string[] {
  const required = fields.filter((f) => f.required);
  return (required.length > 0 ? required : fields.slice(0, 3)).map(line);
}

function sampleText(field: FormField): string {
  return field.example === undefined ? `{${field.name}}` : scalarText(field.example);
}

function fileName(field: string): string {
  return /image|mask/i.test(field) ? 'image.png' : /audio/i.test(field) ? 'audio.mp3' : /video/i.test(field) ? 'video.mp4' : `${field}.bin`;
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Escapes text for a double-quoted shell word, keeping `$VARIABLES` live. */
function shellDouble(text: string): string {
  return text.replace(/["\\`]/g, '\\$&');
}
