/**
 * The info sections of an API: an overview, its servers, each way to authenticate, each tag
 * with its operations, and the webhooks and callbacks it sends. Each becomes an info snippet;
 * `keys` says where in the source it is written.
 */
import { authHint, baseUrl, securitySchemes, serverUrl } from './curl';
import { exampleFromSchema } from './examples';
import { asArray, asRecord, asString, recordEntries, type JsonRecord } from './json';
import { operationTitle } from './operation-snippet';
import { readOperation, type ApiOperation } from './operations';
import { schemaFields, typeLabel } from './schema';
import { HTTP_METHODS } from './structure';
import { compactProse, oneLine, truncate } from './text';
import type { OpenApiParseResult } from './types';

/** One info section before it becomes a snippet. */
export interface InfoSection {
  /** The section heading (also the last breadcrumb). */
  title: string;
  content: string;
  /** The key path of the section in the source, for its line number. */
  keys: string[];
}

const MAX_CONTENT = 2500;
const MAX_LISTED = 60;

/** Every info section of the document, overview first. */
export function infoSections(parsed: OpenApiParseResult, doc: JsonRecord, ops: ApiOperation[]): InfoSection[] {
  return [
    overview(parsed, doc, ops),
    servers(parsed, doc),
    ...security(parsed, doc, ops),
    ...tags(doc, ops),
    ...webhooks(parsed, doc),
    ...callbacks(parsed, doc, ops),
  ]
    .filter((s): s is InfoSection => s !== undefined)
    .map((s) => ({ ...s, content: truncate(s.content, MAX_CONTENT) }));
}

function overview(parsed: OpenApiParseResult, doc: JsonRecord, ops: ApiOperation[]): InfoSection {
  const info = asRecord(doc.info) ?? {};
  const spec = parsed.specVersion === '2.0' ? 'Swagger 2.0' : `OpenAPI ${parsed.specVersion}`;
  const contact = asRecord(info.contact);
  const license = asRecord(info.license);
  const tagNames = [...new Set(ops.flatMap((op) => op.tags))];
  const schemes = securitySchemes(doc, parsed.specVersion).map(([name, scheme]) => `${name} (${schemeKind(scheme)})`);
  const lines = [
    `${parsed.title}${parsed.version ? ` ${parsed.version}` : ''} (${spec})`,
    parsed.description ? truncate(compactProse(parsed.description), 1200) : '',
    `Base URL: ${baseUrl(doc, parsed.specVersion)}${declaresServer(parsed, doc) ? '' : ' (the document declares no server; examples use this placeholder)'}`,
    contact ? `Contact: ${[asString(contact.name), asString(contact.email), asString(contact.url)].filter(Boolean).join(', ')}` : '',
    license ? `License: ${asString(license.name) ?? asString(license.identifier) ?? ''}` : '',
    asString(info.termsOfService) ? `Terms of service: ${String(info.termsOfService)}` : '',
    `${ops.length} operation${ops.length === 1 ? '' : 's'}${tagNames.length > 0 ? ` in ${tagNames.length} tags: ${tagNames.slice(0, 30).join(', ')}` : ''}.`,
    schemes.length > 0 ? `Authentication: ${schemes.join('; ')}` : '',
  ];
  return { title: /overview$/i.test(parsed.title) ? parsed.title : `${parsed.title} overview`, content: lines.filter(Boolean).join('\n'), keys: ['info'] };
}

function declaresServer(parsed: OpenApiParseResult, doc: JsonRecord): boolean {
  if (parsed.specVersion === '2.0') return asString(doc.host) !== undefined;
  const first = asRecord(asArray(doc.servers)[0]);
  return first !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(serverUrl(first));
}

function servers(parsed: OpenApiParseResult, doc: JsonRecord): InfoSection | undefined {
  if (parsed.specVersion === '2.0') {
    if (!asString(doc.host)) return undefined;
    const schemes = asArray(doc.schemes).filter((s) => typeof s === 'string');
    return { title: 'Servers', content: `Base URL: ${baseUrl(doc, '2.0')}${schemes.length > 1 ? ` (schemes: ${schemes.join(', ')})` : ''}`, keys: ['host'] };
  }
  const list = asArray(doc.servers)
    .map((s) => asRecord(s))
    .filter((s): s is JsonRecord => s !== undefined);
  if (list.length === 0) return undefined;
  const lines = list.slice(0, 20).map((server) => {
    const description = asString(server.description);
    const variables = Object.entries(asRecord(server.variables) ?? {}).map(([name, v]) => {
      const variable = asRecord(v) ?? {};
      const choices = asArray(variable.enum).map(String);
      return `  - {${name}}: default ${String(variable.default)}${choices.length > 0 ? ` (one of ${choices.join(', ')})` : ''}${asString(variable.description) ? ` — ${oneLine(String(variable.description))}` : ''}`;
    });
    return [
      `- ${serverUrl(server)}${description ? ` — ${oneLine(description)}` : ''}${String(server.url).includes('{') ? ` (template ${String(server.url)})` : ''}`,
      ...variables,
    ].join('\n');
  });
  return { title: 'Servers', content: lines.join('\n'), keys: ['servers'] };
}

function security(parsed: OpenApiParseResult, doc: JsonRecord, ops: ApiOperation[]): InfoSection[] {
  const globalNames = new Set(asArray(doc.security).flatMap((r) => Object.keys(asRecord(r) ?? {})));
  const container = parsed.specVersion === '2.0' ? ['securityDefinitions'] : ['components', 'securitySchemes'];
  return securitySchemes(doc, parsed.specVersion).map(([name, scheme]) => {
    const hint = authHint(scheme);
    const send =
      hint?.kind === 'header'
        ? `Send the header: ${hint.name}: ${hint.value}`
        : hint?.kind === 'query'
          ? `Send the query parameter: ?${hint.name}=${hint.value}`
          : hint?.kind === 'cookie'
            ? `Send the cookie: ${hint.name}=${hint.value}`
            : hint?.kind === 'basic'
              ? 'Send HTTP basic credentials: curl -u "$USERNAME:$PASSWORD"'
              : hint?.kind === 'mutualTLS'
                ? 'Present a client TLS certificate: curl --cert client.crt --key client.key'
                : '';
    const used = ops.filter((op) => asArray(op.operation.security ?? doc.security).some((r) => Object.hasOwn(asRecord(r) ?? {}, name))).length;
    const lines = [
      `${name}: ${schemeKind(scheme)}.`,
      send,
      asString(scheme.description) ? truncate(compactProse(String(scheme.description)), 800) : '',
      globalNames.has(name)
        ? `Applies to every operation unless it declares its own security (${used} of ${ops.length} use it).`
        : `Used by ${used} of ${ops.length} operations.`,
      ...oauthFlows(scheme),
      asString(scheme.openIdConnectUrl) ? `OpenID Connect discovery: ${String(scheme.openIdConnectUrl)}` : '',
    ];
    return { title: `Authentication: ${name}`, content: lines.filter(Boolean).join('\n'), keys: [...container, name] };
  });
}

function schemeKind(scheme: JsonRecord): string {
  const type = asString(scheme.type) ?? 'unknown';
  if (type === 'http') return `HTTP ${asString(scheme.scheme) ?? 'bearer'}${asString(scheme.bearerFormat) ? ` (${String(scheme.bearerFormat)})` : ''}`;
  if (type === 'apiKey') return `API key in ${asString(scheme.in) ?? 'header'} "${asString(scheme.name) ?? ''}"`;
  if (type === 'basic') return 'HTTP basic';
  return type === 'oauth2' ? 'OAuth 2.0' : type === 'openIdConnect' ? 'OpenID Connect' : type;
}

function oauthFlows(scheme: JsonRecord): string[] {
  // OpenAPI 3 nests flows; Swagger 2 has one flow with its URLs and scopes at the top.
  const flows = asRecord(scheme.flows) ?? (scheme.flow ? { [String(scheme.flow)]: scheme } : {});
  return recordEntries(flows).map(([flow, f]) => {
    const urls = [
      asString(f.authorizationUrl) ? `authorization URL ${String(f.authorizationUrl)}` : '',
      asString(f.tokenUrl) ? `token URL ${String(f.tokenUrl)}` : '',
    ];
    const scopes = Object.entries(asRecord(f.scopes) ?? {})
      .slice(0, 15)
      .map(([s, d]) => `${s}${typeof d === 'string' && d ? ` (${oneLine(d)})` : ''}`);
    return `OAuth flow ${flow}: ${[...urls, scopes.length > 0 ? `scopes ${scopes.join(', ')}` : ''].filter(Boolean).join('; ')}`;
  });
}

function tags(doc: JsonRecord, ops: ApiOperation[]): InfoSection[] {
  const declared = new Map(
    asArray(doc.tags).flatMap((t) => {
      const tag = asRecord(t);
      return tag && typeof tag.name === 'string' ? [[tag.name, tag] as [string, JsonRecord]] : [];
    }),
  );
  const names = [...new Set([...declared.keys(), ...ops.flatMap((op) => op.tags)])];
  return names.map((name) => {
    const tag = declared.get(name);
    const members = ops.filter((op) => op.tags.includes(name));
    const listed = members.slice(0, MAX_LISTED).map((op) => `- ${operationTitle(op)}`);
    const lines = [
      tag && asString(tag.description) ? truncate(compactProse(String(tag.description)), 800) : '',
      asString(asRecord(tag?.externalDocs)?.url) ? `More: ${String(asRecord(tag?.externalDocs)?.url)}` : '',
      members.length > 0 ? `Operations (${members.length}):` : 'No operations.',
      ...listed,
      members.length > listed.length ? `- …and ${members.length - listed.length} more` : '',
    ];
    return { title: `Tag: ${name}`, content: lines.filter(Boolean).join('\n'), keys: tag ? ['tags'] : ['paths'] };
  });
}

function webhooks(parsed: OpenApiParseResult, doc: JsonRecord): InfoSection[] {
  return recordEntries(doc.webhooks).flatMap(([name, item]) =>
    HTTP_METHODS.filter((m) => asRecord(item[m])).map((method) => {
      const op = readOperation(doc, parsed.specVersion, name, method, item, asRecord(item[method]) ?? {});
      return {
        title: `Webhook: ${name}`,
        content: [`The API sends ${method.toUpperCase()} requests for the "${name}" event to a URL you register.`, ...eventLines(doc, op)].join('\n'),
        keys: ['webhooks', name],
      };
    }),
  );
}

function callbacks(parsed: OpenApiParseResult, doc: JsonRecord, ops: ApiOperation[]): InfoSection[] {
  return ops.flatMap((owner) =>
    recordEntries(owner.operation.callbacks).flatMap(([name, callback]) =>
      recordEntries(callback).flatMap(([expression, item]) =>
        HTTP_METHODS.filter((m) => asRecord(item[m])).map((method) => {
          const op = readOperation(doc, parsed.specVersion, expression, method, item, asRecord(item[method]) ?? {});
          const intro = `After ${owner.method.toUpperCase()} ${owner.path}, the API calls back ${method.toUpperCase()} ${expression} ("${name}").`;
          return {
            title: `Callback: ${name} (${owner.method.toUpperCase()} ${owner.path})`,
            content: [intro, ...eventLines(doc, op)].join('\n'),
            keys: ['paths', owner.path, owner.method, 'callbacks', name],
          };
        }),
      ),
    ),
  );
}

/** Description, payload fields and a payload example of a webhook or callback request. */
function eventLines(doc: JsonRecord, op: ApiOperation): string[] {
  const prose = [asString(op.operation.summary), asString(op.operation.description), op.body?.description].filter(Boolean).join('\n');
  const body = op.body;
  const lines = [prose ? truncate(compactProse(prose), 600) : ''];
  if (body?.schema !== undefined) {
    lines.push(`Payload (${body.mediaType}): ${typeLabel(doc, body.schema)}`);
    lines.push(
      ...schemaFields(doc, body.schema, 12).fields.map((f) =>
        truncate(
          `- ${f.name} (${[f.type, f.required ? 'required' : ''].filter(Boolean).join(', ')})${f.description ? `: ${oneLine(f.description)}` : ''}`,
          160,
        ),
      ),
    );
    const example = body.example ?? exampleFromSchema(doc, body.schema, { mode: 'response', maxBytes: 800 });
    if (example !== undefined) lines.push(`Example payload: ${JSON.stringify(example)}`);
  }
  const reply = op.responses.map((r) => `${r.status}${r.description ? ` ${oneLine(r.description)}` : ''}`).join('; ');
  if (reply) lines.push(`Expected reply: ${truncate(reply, 300)}`);
  return lines.filter(Boolean);
}
