/** The shapes shared by the OpenAPI parser and the snippet builder. */

export type OpenApiSpecVersion = '2.0' | '3.0' | '3.1';

/** An accepted OpenAPI document: decoded, guarded, validated, with its identity read out. */
export interface OpenApiParseResult {
  /** The document as decoded (its `$ref`s are not resolved). */
  document: object;
  format: 'json' | 'yaml';
  specVersion: OpenApiSpecVersion;
  title: string;
  version: string;
  description?: string;
  /** The decoded text (BOM removed), for locating snippets' source lines. */
  rawText: string;
}

/** Limits of {@link parseOpenApiDocument}; the defaults suit uploads through the API. */
export interface OpenApiParseOptions {
  /** Largest accepted file, in bytes (default 10 MB, the upload limit). */
  maxBytes?: number;
  /** Deepest accepted nesting of objects and arrays (default 200). */
  maxDepth?: number;
  /** Longest accepted object key, in characters (default 10,000). */
  maxKeyLength?: number;
  /** Largest size, once YAML aliases are expanded, as JSON bytes (default 4 × maxBytes). */
  maxExpandedBytes?: number;
  /**
   * The full validator (@readme/openapi-parser) walks the document with every `$ref` expanded;
   * above this many expanded nodes (default 4,000,000) a light structural check runs instead
   * so that a `$ref` fan-out cannot stall the server.
   */
  maxValidatorNodes?: number;
}
