/**
 * One code snippet per operation: the title a reader scans for (`POST /pets — Create a pet`),
 * a description with the prose, parameters, body fields and statuses, and as code the curl
 * command followed by the success response as commented JSON.
 */
import type { ParsedSnippet } from '../types';
import { buildCurl } from './curl';
import { exampleFromSchema } from './examples';
import { asRecord, asString, type JsonRecord } from './json';
import type { ApiOperation, ApiResponse } from './operations';
import { flattenSchema, schemaFields, typeLabel } from './schema';
import { compactProse, firstSentence, humanizeIdentifier, oneLine, truncate } from './text';
import type { OpenApiSpecVersion } from './types';

const MAX_PROSE = 800;
const MAX_ITEMS = 30;
const MAX_ITEM = 160;
const MAX_DESCRIPTION = 4000;
const MAX_RESPONSE_BYTES = 1500;
const MAX_RESPONSE_LINES = 45;

/** Where the snippet sits, supplied by the caller. */
export interface SnippetPlace {
  apiTitle: string;
  path: string;
  startLine: number;
}

/** The code snippet of one operation. */
export function operationSnippet(doc: JsonRecord, specVersion: OpenApiSpecVersion, op: ApiOperation, place: SnippetPlace): ParsedSnippet {
  const title = operationTitle(op);
  const response = responseBlock(doc, op);
  return {
    kind: 'code',
    title,
    breadcrumb: [place.apiTitle, op.tags[0] ?? 'Operations', title],
    pageTitle: place.apiTitle,
    description: operationDescription(doc, op),
    content: '',
    language: 'bash',
    code: [buildCurl(doc, specVersion, op), response].filter(Boolean).join('\n\n'),
    path: place.path,
    startLine: place.startLine,
  };
}

/** `METHOD /path — label`, or `METHOD /path` when the operation has no usable label. */
export function operationTitle(op: ApiOperation): string {
  const label = operationLabel(op);
  return `${op.method.toUpperCase()} ${op.path}${label ? ` — ${label}` : ''}`;
}

/** A short summary, else the operationId in words, else the summary's first sentence. */
export function operationLabel(op: ApiOperation): string | undefined {
  const summary = asString(op.operation.summary);
  if (summary && isShort(summary)) return summary;
  const operationId = asString(op.operation.operationId);
  if (operationId) return humanizeIdentifier(operationId);
  return summary ? truncate(firstSentence(compactProse(summary)), 100) : undefined;
}

/** The response example as pretty JSON lines; a generated one shrinks until it fits the line limit. */
function responseExampleLines(doc: JsonRecord, response: ApiResponse): string[] {
  const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2)).split('\n');
  if (response.example !== undefined) return pretty(response.example);
  if (response.schema === undefined) return [];
  let lines: string[] = [];
  for (const maxBytes of [MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES / 2, MAX_RESPONSE_BYTES / 4]) {
    const example = exampleFromSchema(doc, response.schema, { mode: 'response', maxBytes });
    if (example === undefined) return [];
    lines = pretty(example);
    if (lines.length <= MAX_RESPONSE_LINES) break;
  }
  return lines;
}

function isShort(summary: string): boolean {
  return summary.length <= 100 && !summary.includes('\n');
}

/**
 * The prose, operationId, parameters, body fields and response statuses of an operation.
 * Prose and statuses always fit; parameters and fields fill the rest of the budget and the
 * remainder is counted ("…and 12 more").
 */
export function operationDescription(doc: JsonRecord, op: ApiOperation): string {
  const summary = asString(op.operation.summary);
  const prose = [summary && !isShort(summary) ? summary : undefined, asString(op.operation.description)].filter(Boolean).join('\n\n');
  const intro = prose ? truncate(compactProse(prose), MAX_PROSE) : (summary ?? '');
  const facts = [
    op.operation.deprecated === true ? 'Deprecated.' : '',
    asString(op.operation.operationId) ? `operationId: ${String(op.operation.operationId)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const statuses = op.responses.length > 0 ? `Responses: ${truncate(op.responses.map(statusLine).join('; '), 600)}` : '';
  const budget = { chars: MAX_DESCRIPTION - intro.length - facts.length - statuses.length - 12, items: MAX_ITEMS };
  const parameters = listSection(
    'Parameters:',
    op.parameters.map((p) => item(p.name, [p.in, p.type, p.required ? 'required' : ''], p.description)),
    budget,
  );
  const body = op.body ? bodySection(doc, op, budget) : '';
  return [intro, facts, parameters, body, statuses].filter(Boolean).join('\n\n');
}

/** A header and as many items as the budget allows, then how many were left out. */
function listSection(header: string, items: string[], budget: { chars: number; items: number }, total = items.length): string {
  if (items.length === 0) return header.endsWith(':') ? '' : header;
  const kept: string[] = [];
  budget.chars -= header.length + 1;
  for (const line of items) {
    if (budget.items <= 0 || budget.chars - line.length - 20 < 0) break;
    kept.push(line);
    budget.chars -= line.length + 1;
    budget.items -= 1;
  }
  return [header, ...kept, more(total - kept.length)].filter(Boolean).join('\n');
}

function bodySection(doc: JsonRecord, op: ApiOperation, budget: { chars: number; items: number }): string {
  const body = op.body;
  if (!body) return '';
  const head = [body.mediaType, body.required ? 'required' : ''].filter(Boolean).join(', ');
  const named = body.schema !== undefined ? typeLabel(doc, body.schema) : '';
  const description = body.description ? `\n${truncate(oneLine(compactProse(body.description)), MAX_ITEM)}` : '';
  const header = `Request body (${head})${named && !/^(object|any)$/.test(named) ? `: ${named}` : ''}${description}`;
  const { fields, total } =
    body.formFields.length > 0
      ? { fields: body.formFields.map((f) => ({ name: f.name, type: f.type, required: f.required, description: undefined })), total: body.formFields.length }
      : schemaFields(doc, body.schema, MAX_ITEMS);
  return listSection(
    header,
    fields.map((f) => item(f.name, [f.type, f.required ? 'required' : ''], f.description)),
    budget,
    total,
  );
}

function item(name: string, facts: string[], description: string | undefined): string {
  const text = description ? `: ${firstSentence(compactProse(description))}` : '';
  return truncate(`- ${name} (${facts.filter(Boolean).join(', ')})${text}`, MAX_ITEM);
}

function more(count: number): string {
  return count > 0 ? `- …and ${count} more` : '';
}

function statusLine(response: ApiResponse): string {
  const description = response.description ? ` ${truncate(firstSentence(oneLine(compactProse(response.description))), 60)}` : '';
  const media = response.mediaTypes.length > 0 ? ` (${response.mediaTypes.slice(0, 3).join(', ')})` : '';
  return `${response.status}${description}${media}`;
}

/**
 * The success response as comment lines: `# Response 200 (application/json)` and its JSON
 * example (the author's, else generated), plus a note when the operation can also stream.
 */
export function responseBlock(doc: JsonRecord, op: ApiOperation): string {
  const success = op.responses.filter((r) => /^2\d\d$|^2XX$/i.test(r.status));
  const chosen = success.find((r) => r.schema !== undefined || r.example !== undefined) ?? success[0];
  if (!chosen) return '';
  const lines = [`# Response ${chosen.status}${chosen.mediaType ? ` (${chosen.mediaType})` : chosen.description ? `: ${oneLine(chosen.description)}` : ''}`];
  const exampleLines = responseExampleLines(doc, chosen);
  lines.push(...exampleLines.slice(0, MAX_RESPONSE_LINES).map((l) => `# ${l}`.trimEnd()));
  if (exampleLines.length > MAX_RESPONSE_LINES) lines.push('# …');
  if (chosen.mediaTypes.includes('text/event-stream') && chosen.mediaType !== 'text/event-stream') {
    const bodyProperties = op.body?.schema !== undefined ? asRecord(flattenSchema(doc, op.body.schema).schema?.properties) : undefined;
    const streamFlag = bodyProperties !== undefined && Object.hasOwn(bodyProperties, 'stream');
    lines.push(`# ${streamFlag ? 'With "stream": true the response is' : 'The response can also be'} text/event-stream (server-sent events).`);
  }
  return lines.join('\n');
}
