/**
 * Structural validation of an OpenAPI document: the full Swagger/OpenAPI schema validation of
 * @readme/openapi-parser when the document is small enough once its `$ref`s are expanded,
 * else the light check of ./structure. Either way the result is a short list of problems.
 */
import { validate } from '@readme/openapi-parser';
import type { JsonRecord } from './json';
import { countExpandedNodes } from './refs';
import { checkStructure } from './structure';
import type { OpenApiSpecVersion } from './types';

/** The problems found (at most `max`, with a note when there are more) and which check ran. */
export interface ValidationOutcome {
  errors: string[];
  validator: 'openapi-parser' | 'structural';
}

type ValidatorInput = Parameters<typeof validate>[0];

/**
 * Validates `document` without modifying it (the validator dereferences its input, so it
 * receives a structured clone).
 */
export async function validateOpenApi(
  document: JsonRecord,
  specVersion: OpenApiSpecVersion,
  options: { maxValidatorNodes: number; maxErrors?: number },
): Promise<ValidationOutcome> {
  const max = options.maxErrors ?? 5;
  if (countExpandedNodes(document, options.maxValidatorNodes) > options.maxValidatorNodes) {
    return { errors: checkStructure(document, specVersion, max), validator: 'structural' };
  }
  try {
    const result = await validate(structuredClone(document) as ValidatorInput, {
      resolve: { external: false },
      validate: { errors: { colorize: false } },
    });
    if (result.valid) return { errors: [], validator: 'openapi-parser' };
    const errors = result.errors.slice(0, max).map((e) => formatValidatorMessage(e.message));
    const more = result.errors.length - errors.length + result.additionalErrors;
    if (more > 0) errors.push(`…and ${more} more.`);
    return { errors, validator: 'openapi-parser' };
  } catch (err) {
    // The validator throws for what it cannot even dereference; report that as one problem.
    return { errors: [formatValidatorMessage(err instanceof Error ? err.message : String(err))], validator: 'openapi-parser' };
  }
}

/**
 * Shortens one validator message: its first line, then the lines of its code frame around
 * the marked one, without the gutter (the frame's line numbers count lines of the document
 * re-printed as JSON, not of the uploaded file, and would mislead).
 */
export function formatValidatorMessage(message: string): string {
  const [first, ...rest] = message.split('\n');
  const frame = rest.filter((line) => /^\s*>?\s*\d*\s*\|/.test(line));
  const marked = frame.findIndex((line) => /^\s*>/.test(line));
  if (marked < 0) return first.trim();
  const context = frame.slice(Math.max(0, marked - 2), marked + 3).map((line) => {
    const bar = line.indexOf('|');
    const prefix = /^\s*>/.test(line) ? '> ' : '  ';
    return prefix + line.slice(bar + 2);
  });
  const indent = Math.min(...context.map((l) => /^..( *)/.exec(l)?.[1].length ?? 0));
  return [first.trim(), ...context.map((l) => `    ${l.slice(0, 2)}${l.slice(2 + indent)}`.trimEnd())].join('\n');
}
