/**
 * A light structural check of an OpenAPI document: the parts the snippet builder relies on,
 * plus every internal `$ref` resolving. Used when the full validator would be too slow (a
 * document whose `$ref`s expand to millions of nodes) — it never follows a `$ref`.
 */
import { asArray, asRecord, type JsonRecord } from './json';
import { isInternalRef, resolveRef } from './refs';
import type { OpenApiSpecVersion } from './types';

/** The methods a path item can hold operations under, in the order OpenAPI lists them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const PARAMETER_LOCATIONS: Record<OpenApiSpecVersion, readonly string[]> = {
  '2.0': ['query', 'header', 'path', 'formData', 'body'],
  '3.0': ['query', 'header', 'path', 'cookie'],
  '3.1': ['query', 'header', 'path', 'cookie'],
};

/** Where a value sits, written like a JavaScript property access: `paths["/pets"].get`. */
export function where(segments: readonly (string | number)[]): string {
  return segments
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`))
    .join('');
}

/** Up to `max` structural problems of the document, each naming where it is. */
export function checkStructure(doc: JsonRecord, specVersion: OpenApiSpecVersion, max = 5): string[] {
  const errors: string[] = [];
  const report = (message: string) => {
    if (errors.length <= max) errors.push(message);
  };
  const info = asRecord(doc.info);
  if (!info) report('info is missing or not an object (it needs title and version).');
  else {
    if (typeof info.title !== 'string') report('info.title is missing or not a string.');
    if (typeof info.version !== 'string') report('info.version is missing or not a string (quote numbers in YAML: version: "1.0").');
  }
  const paths = asRecord(doc.paths);
  if (doc.paths !== undefined && !paths) report('paths must be an object mapping "/path" to path items.');
  if (specVersion !== '3.1' && doc.paths === undefined) report('paths is missing: list the API operations under paths.');
  const filled = (value: unknown) => Object.keys(asRecord(value) ?? {}).length > 0;
  if (specVersion === '3.1' && !filled(doc.paths) && !filled(doc.webhooks) && !filled(doc.components)) {
    report('An OpenAPI 3.1 document needs at least one entry in paths, webhooks or components.');
  }
  if (specVersion !== '2.0' && doc.servers !== undefined) {
    asArray(doc.servers).forEach((server, i) => {
      if (typeof asRecord(server)?.url !== 'string') report(`${where(['servers', i])}.url is missing or not a string.`);
    });
  }
  for (const [path, item] of Object.entries(paths ?? {})) {
    if (path.startsWith('x-')) continue;
    if (!path.startsWith('/')) report(`${where(['paths', path])}: path keys must start with "/".`);
    const pathItem = asRecord(item);
    if (!pathItem) {
      report(`${where(['paths', path])} must be an object.`);
      continue;
    }
    checkParameters(pathItem.parameters, ['paths', path, 'parameters'], specVersion, report);
    for (const method of HTTP_METHODS) {
      if (pathItem[method] === undefined) continue;
      const operation = asRecord(pathItem[method]);
      const at = ['paths', path, method];
      if (!operation) {
        report(`${where(at)} must be an object.`);
        continue;
      }
      checkParameters(operation.parameters, [...at, 'parameters'], specVersion, report);
      if (operation.responses === undefined) {
        if (specVersion !== '3.1') report(`${where(at)}.responses is missing: every operation lists its responses.`);
      } else if (!asRecord(operation.responses)) report(`${where(at)}.responses must be an object keyed by status code.`);
    }
  }
  checkInternalRefs(doc, report, () => errors.length > max);
  return errors;
}

function checkParameters(value: unknown, at: (string | number)[], specVersion: OpenApiSpecVersion, report: (message: string) => void): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    report(`${where(at)} must be an array.`);
    return;
  }
  value.forEach((raw, i) => {
    const parameter = asRecord(raw);
    if (parameter && typeof parameter.$ref === 'string') return;
    if (!parameter || typeof parameter.name !== 'string') report(`${where([...at, i])} needs a name.`);
    else if (typeof parameter.in !== 'string' || !PARAMETER_LOCATIONS[specVersion].includes(parameter.in)) {
      report(`${where([...at, i])} (${parameter.name}) needs "in" set to one of ${PARAMETER_LOCATIONS[specVersion].join(', ')}.`);
    }
  });
}

function checkInternalRefs(doc: JsonRecord, report: (message: string) => void, full: () => boolean): void {
  const stack: unknown[] = [doc];
  while (stack.length > 0 && !full()) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const record = node as JsonRecord;
    if (typeof record.$ref === 'string' && isInternalRef(record.$ref) && resolveRef(doc, record.$ref) === undefined) {
      report(`$ref "${record.$ref}" points to nothing in this document.`);
    }
    for (const value of Object.values(record)) if (value !== null && typeof value === 'object') stack.push(value);
  }
}
