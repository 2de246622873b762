/** OpenAPI ingestion: an uploaded Swagger 2.0 / OpenAPI 3.x file in, snippets out. */
export { OpenApiError, type OpenApiErrorReason } from './errors';
export { exampleFromSchema, type ExampleOptions } from './examples';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, parseOpenApiDocument } from './parse';
export { derefSchema, resolveRef } from './refs';
export { openApiToSnippets, type OpenApiSnippetOptions } from './snippets';
export type { OpenApiParseOptions, OpenApiParseResult, OpenApiSpecVersion } from './types';
