/**
 * The operations of a Swagger 2.0 or OpenAPI 3.x document in one normalized shape: path and
 * operation parameters merged and resolved, the request body (OpenAPI 3 `requestBody`, Swagger
 * `in: body` / `in: formData`) and the responses with their preferred media type.
 */
import { asArray, asRecord, asString, recordEntries, type JsonRecord } from './json';
import { exampleFromSchema } from './examples';
import { followRefs } from './refs';
import { flattenSchema, schemaFields, typeLabel } from './schema';
import { HTTP_METHODS } from './structure';
import type { OpenApiSpecVersion } from './types';

/** A path, query, header or cookie parameter, resolved. */
export interface ApiParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description?: string;
  /** A value the author gave (example, default, first enum value). */
  example?: unknown;
}

/** One field of a multipart or URL-encoded form body. */
export interface FormField {
  name: string;
  type: string;
  required: boolean;
  /** A file upload (`format: binary`, Swagger `type: file`). */
  file: boolean;
  /** A sample value, authored or generated. */
  example?: unknown;
}

/** The request body in the media type a snippet shows. */
export interface ApiBody {
  mediaType: string;
  required: boolean;
  description?: string;
  schema?: unknown;
  /** An example the author gave for the body, if any. */
  example?: unknown;
  /** Fields of a form body (multipart or URL-encoded). */
  formFields: FormField[];
}

/** One declared response (by status code). */
export interface ApiResponse {
  status: string;
  description?: string;
  /** The preferred media type (JSON first) and its schema and authored example. */
  mediaType?: string;
  schema?: unknown;
  example?: unknown;
  mediaTypes: string[];
}

/** An operation with everything a snippet needs, independent of the spec version. */
export interface ApiOperation {
  method: string;
  path: string;
  operation: JsonRecord;
  pathItem: JsonRecord;
  tags: string[];
  parameters: ApiParameter[];
  body?: ApiBody;
  responses: ApiResponse[];
}

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** Every operation under `paths`, in document order. */
export function listOperations(doc: JsonRecord, specVersion: OpenApiSpecVersion): ApiOperation[] {
  const out: ApiOperation[] = [];
  for (const [path, pathItem] of recordEntries(doc.paths)) {
    if (path.startsWith('x-')) continue;
    for (const method of HTTP_METHODS) {
      const operation = asRecord(pathItem[method]);
      if (operation) out.push(readOperation(doc, specVersion, path, method, pathItem, operation));
    }
  }
  return out;
}

/** One operation (also used for webhooks and callbacks, whose "path" is a name or expression). */
export function readOperation(
  doc: JsonRecord,
  specVersion: OpenApiSpecVersion,
  path: string,
  method: string,
  pathItem: JsonRecord,
  operation: JsonRecord,
): ApiOperation {
  const merged = new Map<string, JsonRecord>();
  for (const raw of [...asArray(pathItem.parameters), ...asArray(operation.parameters)]) {
    const parameter = followRefs(doc, raw).value;
    if (parameter && typeof parameter.name === 'string') merged.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  const all = [...merged.values()];
  const plain = all.filter((p) => p.in !== 'body' && p.in !== 'formData').map((p) => readParameter(doc, p, specVersion));
  const body = specVersion === '2.0' ? swaggerBody(doc, operation, all) : openApiBody(doc, operation.requestBody);
  const tags = asArray(operation.tags).filter((t): t is string => typeof t === 'string');
  return { method, path, operation, pathItem, tags, parameters: plain, body, responses: readResponses(doc, specVersion, operation) };
}

function readParameter(doc: JsonRecord, p: JsonRecord, specVersion: OpenApiSpecVersion): ApiParameter {
  const schema = specVersion === '2.0' ? p : (p.schema ?? firstMedia(p.content)?.[1].schema);
  const schemaRecord = flattenSchema(doc, schema).schema;
  const examples = Object.values(asRecord(p.examples) ?? {}).map((e) => followRefs(doc, e).value?.value);
  const example = [p.example, examples[0], p['x-example'], schemaRecord?.example, schemaRecord?.default, asArray(schemaRecord?.enum)[0]].find(
    (v) => v !== undefined && v !== null,
  );
  const description = asString(p.description);
  return {
    name: String(p.name),
    in: String(p.in),
    required: p.required === true || p.in === 'path',
    type: typeLabel(doc, schema),
    ...(description ? { description } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

function swaggerBody(doc: JsonRecord, operation: JsonRecord, parameters: JsonRecord[]): ApiBody | undefined {
  const consumes = asArray(operation.consumes ?? doc.consumes).filter((c): c is string => typeof c === 'string');
  const bodyParam = parameters.find((p) => p.in === 'body');
  if (bodyParam) {
    const description = asString(bodyParam.description);
    return {
      mediaType: consumes.find(isJson) ?? consumes[0] ?? 'application/json',
      required: bodyParam.required === true,
      schema: bodyParam.schema,
      formFields: [],
      ...(description ? { description } : {}),
    };
  }
  const form = parameters.filter((p) => p.in === 'formData');
  if (form.length === 0) return undefined;
  const hasFile = form.some((p) => p.type === 'file');
  return {
    mediaType: hasFile || consumes.includes('multipart/form-data') ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    required: form.some((p) => p.required === true),
    formFields: form.map((p) => {
      const example = p.default ?? asArray(p.enum)[0] ?? p['x-example'];
      return {
        name: String(p.name),
        type: typeLabel(doc, p),
        required: p.required === true,
        file: p.type === 'file',
        ...(example !== undefined ? { example } : {}),
      };
    }),
  };
}

function openApiBody(doc: JsonRecord, requestBody: unknown): ApiBody | undefined {
  const body = followRefs(doc, requestBody).value;
  const media = firstMedia(body?.content);
  if (!body || !media) return undefined;
  const [mediaType, mediaObject] = media;
  const description = asString(body.description);
  const example = mediaExample(doc, mediaObject);
  const formFields = FORM_TYPES.includes(mediaType) ? openApiFormFields(doc, mediaObject.schema) : [];
  return {
    mediaType,
    required: body.required === true,
    schema: mediaObject.schema,
    formFields,
    ...(description ? { description } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

function openApiFormFields(doc: JsonRecord, schema: unknown): FormField[] {
  const flat = flattenSchema(doc, schema);
  const properties = asRecord(flat.schema?.properties) ?? {};
  return schemaFields(doc, schema).fields.map((f) => {
    const file = /binary|base64/.test(f.type) || isFileSchema(doc, properties[f.name]);
    const example = file ? undefined : exampleFromSchema(doc, properties[f.name], { mode: 'request', maxBytes: 200, maxDepth: 2 });
    return { name: f.name, type: f.type, required: f.required, file, ...(example !== undefined ? { example } : {}) };
  });
}

function isFileSchema(doc: JsonRecord, schema: unknown): boolean {
  const flat = flattenSchema(doc, schema).schema;
  if (!flat) return false;
  if (flat.format === 'binary' || flat.contentMediaType !== undefined || flat.contentEncoding !== undefined) return true;
  return flat.type === 'array' && isFileSchema(doc, flat.items);
}

function readResponses(doc: JsonRecord, specVersion: OpenApiSpecVersion, operation: JsonRecord): ApiResponse[] {
  const produces = asArray(operation.produces ?? doc.produces).filter((c): c is string => typeof c === 'string');
  const out: ApiResponse[] = [];
  for (const [status, raw] of Object.entries(asRecord(operation.responses) ?? {})) {
    if (status.startsWith('x-')) continue;
    const response = followRefs(doc, raw).value ?? {};
    const description = asString(response.description);
    const base = { status, ...(description ? { description } : {}) };
    if (specVersion === '2.0') {
      const examples = asRecord(response.examples) ?? {};
      const mediaType = Object.keys(examples).find(isJson) ?? produces.find(isJson) ?? produces[0];
      const example = mediaType ? examples[mediaType] : undefined;
      out.push({
        ...base,
        mediaTypes: produces,
        ...(response.schema ? { mediaType: mediaType ?? 'application/json', schema: response.schema } : {}),
        ...(example !== undefined ? { example } : {}),
      });
      continue;
    }
    const content = asRecord(response.content) ?? {};
    const media = firstMedia(content);
    const example = media ? mediaExample(doc, media[1]) : undefined;
    out.push({
      ...base,
      mediaTypes: Object.keys(content),
      ...(media ? { mediaType: media[0], schema: media[1].schema } : {}),
      ...(example !== undefined ? { example } : {}),
    });
  }
  return out;
}

/** The media type to show: JSON first, then any `+json`, then the first declared. */
export function firstMedia(content: unknown): [string, JsonRecord] | undefined {
  const entries = recordEntries(content);
  return entries.find(([type]) => /^application\/json\b/.test(type)) ?? entries.find(([type]) => isJson(type)) ?? entries[0];
}

function mediaExample(doc: JsonRecord, media: JsonRecord): unknown {
  if (media.example !== undefined) return media.example;
  for (const raw of Object.values(asRecord(media.examples) ?? {})) {
    const example = followRefs(doc, raw).value;
    if (example && example.value !== undefined) return example.value;
  }
  return undefined;
}

function isJson(mediaType: string): boolean {
  return /[/+]json\b/.test(mediaType) || mediaType === '*/*';
}
