/**
 * Turns an uploaded file into an accepted OpenAPI document, refusing — with a message the
 * uploader can act on — anything too large, not UTF-8, malformed, hostile (alias bombs, deep
 * nesting, huge keys), not OpenAPI, structurally invalid, or pointing at external files.
 * The checks run cheapest first; nothing recursive sees the input before the guards have.
 */
import yaml from 'js-yaml';
import { OpenApiError } from './errors';
import { decodeUtf8, detectFormat, jsonNestingDepth, measureTree, tooDeepError } from './guards';
import { asRecord, asString, type JsonRecord } from './json';
import type { OpenApiParseOptions, OpenApiParseResult, OpenApiSpecVersion } from './types';
import { validateOpenApi } from './validate';

/** The upload limit of the spec (§8): 10 MB. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Nesting deeper than this is refused; real OpenAPI documents stay far below. */
export const DEFAULT_MAX_DEPTH = 200;
/** Longest accepted object key. */
export const DEFAULT_MAX_KEY_LENGTH = 10_000;
/**
 * Above this many nodes with `$ref`s expanded, the light structural check replaces the full
 * validator. The OpenAI document expands to about 1.9 million and validates in ~0.7 s; the
 * validator's cost grows with the expansion, so a `$ref` fan-out could otherwise stall it.
 */
export const DEFAULT_MAX_VALIDATOR_NODES = 4_000_000;

/** Parses, guards and validates an OpenAPI (3.0, 3.1) or Swagger 2.0 file in JSON or YAML. */
export async function parseOpenApiDocument(buf: Buffer, options: OpenApiParseOptions = {}): Promise<OpenApiParseResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (buf.length > maxBytes) {
    throw new OpenApiError(
      'too_large',
      `The file is ${megabytes(buf.length)}; the limit is ${megabytes(maxBytes)}. Remove unused schemas or examples, or split the API into several documents.`,
    );
  }
  const text = decodeUtf8(buf);
  const format = detectFormat(text);
  const value = format === 'json' ? loadJson(text, maxDepth) : loadYaml(text, maxDepth);
  const { externalRefs } = measureTree(value, {
    maxDepth,
    maxKeyLength: options.maxKeyLength ?? DEFAULT_MAX_KEY_LENGTH,
    maxExpandedBytes: options.maxExpandedBytes ?? 4 * maxBytes,
  });
  const document = asRecord(value);
  if (!document) throw notOpenApi(value === undefined || value === null ? 'The file is empty.' : 'The file holds a single value or a list, not an object.');
  const specVersion = readSpecVersion(document);
  if (externalRefs.length > 0) {
    const shown = externalRefs
      .slice(0, 5)
      .map((ref) => `"${ref}"`)
      .join(', ');
    const more = externalRefs.length > 5 ? ` and ${externalRefs.length - 5} more` : '';
    throw new OpenApiError(
      'external_ref',
      `The document references other files or URLs (${shown}${more}); only references inside the document (starting with "#") are supported. Bundle it into one file first, e.g. \`npx @redocly/cli bundle openapi.yaml -o bundled.yaml\`.`,
      externalRefs,
    );
  }
  const { errors } = await validateOpenApi(document, specVersion, { maxValidatorNodes: options.maxValidatorNodes ?? DEFAULT_MAX_VALIDATOR_NODES });
  if (errors.length > 0) {
    const list = errors.map((e, i) => `${i + 1}. ${e}`).join('\n');
    throw new OpenApiError('invalid', `The ${specLabel(specVersion)} document is not valid:\n${list}\nFix these and upload it again.`, errors);
  }
  const info = asRecord(document.info) ?? {};
  return {
    document,
    format,
    specVersion,
    title: asString(info.title) ?? 'Untitled API',
    version: asString(info.version) ?? '',
    ...(asString(info.description) ? { description: asString(info.description) } : {}),
    rawText: text,
  };
}

function loadJson(text: string, maxDepth: number): unknown {
  if (jsonNestingDepth(text, maxDepth) > maxDepth) throw tooDeepError(maxDepth);
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const where = jsonErrorLocation(text, message);
    throw new OpenApiError(
      'syntax',
      `The file starts like JSON but is not valid JSON${where}: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/, (\.\.\.)?"[\s\S]+ is not valid JSON$/, '')}. Fix the syntax (a JSON linter will point at it) and upload it again.`,
    );
  }
}

function loadYaml(text: string, maxDepth: number): unknown {
  try {
    // CORE_SCHEMA: JSON-compatible values only. The default schema would turn unquoted dates
    // (`version: 2024-01-01`) into Date objects that OpenAPI validation then rejects.
    // js-yaml 4.3 checks `maxDepth` while composing (before recursing deeper); its typings
    // predate the option, hence the widened type.
    const loadOptions: yaml.LoadOptions & { maxDepth: number } = { schema: yaml.CORE_SCHEMA, maxDepth: maxDepth + 2 };
    return yaml.load(text, loadOptions);
  } catch (err) {
    if (!(err instanceof yaml.YAMLException)) throw err;
    if (/maxDepth/.test(err.reason)) throw tooDeepError(maxDepth);
    if (/maxTotalMergeKeys/.test(err.reason)) {
      throw new OpenApiError(
        'bomb',
        'The YAML uses too many merge keys (<<: *alias); this looks like an expansion bomb. Write the merged mappings out or use $ref, and upload it again.',
      );
    }
    const mark = err.mark ? ` at line ${err.mark.line + 1}, column ${err.mark.column + 1}` : '';
    throw new OpenApiError('syntax', `The file is neither valid JSON nor valid YAML${mark}: ${err.reason}. Fix the syntax and upload it again.`);
  }
}

/**
 * Where a JSON.parse error is. V8 gives a position for some errors and only an excerpt of
 * the text around the bad token for others; the excerpt is looked up to find the line.
 */
function jsonErrorLocation(text: string, message: string): string {
  const position = /position (\d+)/.exec(message);
  if (position) return ` at ${lineAndColumn(text, Number(position[1]))}`;
  if (/Unexpected end of JSON input/.test(message)) return ` at ${lineAndColumn(text, text.trimEnd().length)} (the text ends too early)`;
  const excerpt = /, (?:\.\.\.)?"([\s\S]+)"(?:\.\.\.)? is not valid JSON$/.exec(message)?.[1];
  const at = excerpt ? text.indexOf(excerpt) : -1;
  return excerpt && at >= 0 ? ` near ${lineAndColumn(text, at + Math.floor(excerpt.length / 2))}` : '';
}

function readSpecVersion(document: JsonRecord): OpenApiSpecVersion {
  const { swagger, openapi } = document;
  if (swagger !== undefined) {
    if (swagger === '2.0') return '2.0';
    if (swagger === 2) throw new OpenApiError('invalid', 'swagger must be the string "2.0"; in YAML write swagger: "2.0" with the quotes.');
    throw notOpenApi(`It declares swagger: ${JSON.stringify(swagger)}, but only Swagger "2.0" is supported.`);
  }
  if (openapi !== undefined) {
    if (typeof openapi === 'string' && /^3\.0\.\d+(-.+)?$/.test(openapi)) return '3.0';
    if (typeof openapi === 'string' && /^3\.1\.\d+(-.+)?$/.test(openapi)) return '3.1';
    if (typeof openapi === 'number')
      throw new OpenApiError('invalid', `openapi must be a string with three parts such as "3.0.3"; in YAML quote it: openapi: "${openapi}.0".`);
    throw notOpenApi(`It declares openapi: ${JSON.stringify(openapi)}; supported versions are 3.0.x and 3.1.x (and Swagger 2.0).`);
  }
  throw notOpenApi('It has no top-level "openapi" (3.0/3.1) or "swagger" (2.0) field.');
}

function notOpenApi(why: string): OpenApiError {
  return new OpenApiError('not_openapi', `This is not an OpenAPI or Swagger document. ${why} Upload an OpenAPI 3.0/3.1 or Swagger 2.0 file in JSON or YAML.`);
}

function specLabel(specVersion: OpenApiSpecVersion): string {
  return specVersion === '2.0' ? 'Swagger 2.0' : `OpenAPI ${specVersion}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}
