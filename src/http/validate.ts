/**
 * The request's declared contract, checked at the edge: `validate({ params, query, body })`
 * parses each part with its zod schema and leaves the result on `ctx.state.input`, typed
 * for the handler that follows; the first problem is a 400 validation_error naming its
 * field. Path and query are parsed before the handler runs; the body when the handler first
 * reads `input.body` (after its resource-dependent authorization, as before). The same schema objects describe the route in the generated OpenAPI document
 * (http/openapi.ts), so what is published is what is checked.
 *
 * Query parameters arrive as `string | string[]`: `query.text()` and friends accept one
 * value (a repeated parameter is refused: "must be given once") and trim it.
 */
import { z } from 'zod';
import type { DefaultState, Middleware } from 'koa';
import type { RouterMiddleware } from '@koa/router';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { ValidationError } from '../errors';
import type { ErrorCode } from '../errors';
import './state';

// `.openapi()` on zod schemas (descriptions, examples) for the generated document.
extendZodWithOpenApi(z);

/** A route's contract: the parts it reads, plus what the OpenAPI document says of it. */
export interface RouteSchema {
  params?: z.AnyZodObject;
  /** An object of parameters, or one refined or preprocessed across them (e.g. "topic stands in for query"). */
  query?: z.AnyZodObject | z.ZodEffects<z.AnyZodObject> | z.ZodEffects<z.AnyZodObject, Record<string, unknown>, unknown>;
  /** A JSON body. */
  body?: z.ZodTypeAny;
  /** A multipart form (documented only: the multipart middleware reads and checks it). */
  multipart?: z.AnyZodObject;
  /** A JSON body the handler's own parser checks (documented only, e.g. /mcp's JSON-RPC). */
  documentedBody?: z.ZodTypeAny;
  /** A body read raw by the handler, of this content type (documented only). */
  rawBody?: string;
  summary: string;
  tag: string;
  /** The success answer (documented; default: any JSON object). */
  response?: z.ZodTypeAny;
  /** The success answer's content type when it is not JSON (e.g. a streamed file). */
  responseType?: string;
  /** Success status (default 200). */
  status?: number;
  /** The answer is text/plain unless `type=json` (context routes). */
  text?: boolean;
  /** Other non-error answers (e.g. 202 accepted, 503 with a health body). */
  responses?: Record<number, { description: string; schema?: z.ZodTypeAny }>;
  /** The body of its error answers when not only `Error` (e.g. /mcp: also JSON-RPC errors). */
  errorResponse?: z.ZodTypeAny;
  /** Error codes this route answers with besides the ones its chain implies (validation, auth, rate limit). */
  errors?: readonly ErrorCode[];
}

type Out<S, Fallback> = S extends z.ZodTypeAny ? z.output<S> : Fallback;

/** The parsed input a handler receives on `ctx.state.input`. */
export interface Input<S extends RouteSchema> {
  params: Out<S['params'], Record<string, string>>;
  query: Out<S['query'], Record<string, never>>;
  body: Out<S['body'], undefined>;
}

/** State of a handler behind validate(schema). */
export type Validated<S extends RouteSchema> = DefaultState & { input: Input<S> };

const declared = new WeakMap<Middleware | RouterMiddleware, RouteSchema>();

/** The schema a validate() middleware checks (the OpenAPI generator reads the route table through this). */
export function schemaOf(middleware: unknown): RouteSchema | undefined {
  return typeof middleware === 'function' ? declared.get(middleware as Middleware) : undefined;
}

export function validate<S extends RouteSchema>(schema: S): RouterMiddleware<Validated<S>> {
  const middleware: RouterMiddleware<Validated<S>> = async function validateMiddleware(ctx, next) {
    const params = schema.params ? parse(schema.params, ctx.params, 'path') : ctx.params;
    const query = schema.query ? parse(schema.query, { ...ctx.query }, 'query') : {};
    // The body is parsed when the handler first reads it, so a check that comes first in the
    // handler (the caller may not touch this team: 403/404) still answers before a bad body's 400.
    let body: { value: unknown } | undefined;
    const input = { params, query } as Input<S>;
    Object.defineProperty(input, 'body', {
      enumerable: true,
      get: () => (body ??= { value: schema.body ? parse(schema.body, ctx.request.body, 'body') : undefined }).value,
    });
    ctx.state.input = input;
    await next();
  };
  declared.set(middleware as Middleware, schema);
  return middleware;
}

/** Parses one part of a request; the first issue becomes a 400 naming its field. */
export function parse<S extends z.ZodTypeAny>(schema: S, value: unknown, part: 'path' | 'query' | 'body' = 'body'): z.output<S> {
  const result = schema.safeParse(value ?? (part === 'body' ? {} : value));
  if (result.success) return result.data;
  throw toValidationError(result.error.issues[0]);
}

/** The first zod issue as our 400: "field: problem.", "field is required." or "Unknown field "x"." */
export function toValidationError(issue: z.ZodIssue): ValidationError {
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const field = [path, issue.keys[0]].filter(Boolean).join('.');
    return new ValidationError(`Unknown field "${field}".`, field);
  }
  const field = path || undefined;
  if (issue.message === 'Required') return new ValidationError(field ? `${field} is required.` : 'A JSON body is required.', field);
  const text = issue.message.replace(/\.$/, '');
  // A schema's own message that already names its field ("docsRepoUrl is required") is kept whole.
  if (field && (text.startsWith(`${field} `) || text.startsWith(`${issue.path[issue.path.length - 1]} `))) return new ValidationError(`${text}.`, field);
  const message = text.charAt(0).toLowerCase() + text.slice(1);
  if (field && message.startsWith('must ')) return new ValidationError(`${field} ${message}.`, field);
  return new ValidationError(field ? `${field}: ${message}.` : `Invalid request: ${message}.`, field);
}

/** Query-parameter schemas: one value per name, trimmed; an empty value counts as absent. */
export const query = {
  /** An optional text parameter. */
  text(max = 2000) {
    return z.preprocess(single, z.string().max(max).optional());
  },
  /** A required text parameter (absent or blank: "<name> is required."). */
  requiredText(max = 2000) {
    return z.preprocess(single, z.string().max(max));
  },
  /** A team id (`?teamId=`): one value of at most 100 characters. */
  teamId() {
    return z.preprocess(single, z.string().max(100, 'must be one team id').optional()).openapi({
      type: 'string',
      description: "Address this team's private copy (admins and the team's members); without it the caller's team's copy, else the public one",
    });
  },
  /** "true"/"1" → true, "false"/"0" → false, absent → the default. */
  flag(fallback = false) {
    return z
      .preprocess(single, z.enum(['true', 'false', '1', '0'], { errorMap: () => ({ message: 'must be true or false' }) }).optional())
      .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
  },
  /** A whole number within bounds, or the default when absent. */
  int(min: number, max: number, fallback: number) {
    const message = `must be a whole number from ${min} to ${max}`;
    return z
      .preprocess(
        single,
        z
          .string()
          .regex(/^\d+$/, message)
          .transform(Number)
          .pipe(z.number().int().min(min, message).max(max, message))
          .optional()
          .transform((n) => n ?? fallback),
      )
      .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });
  },
  /** One of a few words, or the default when absent. */
  oneOf<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
    return z.preprocess(single, z.enum(values, { errorMap: () => ({ message: `must be ${values.join(' or ')}` }) }).default(fallback as never));
  },
};

/** string[] → refused (a parameter given twice); blank → absent; else trimmed. */
function single(raw: unknown, ctx: z.RefinementCtx): unknown {
  if (Array.isArray(raw)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be given once' });
    return z.NEVER;
  }
  if (typeof raw !== 'string') return raw;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}
