/**
 * Tool arguments as models actually send them. The advertised JSON schema names the
 * canonical arguments (and marks them required); the zod schemas that validate a call are
 * loose and keep every key, so a call that misnames an argument — `userQuery` for `query`,
 * `library_id` for `libraryId` — still works: each tool picks the canonical value or its
 * first present alias. Saying "unknown argument" to a model costs a round trip and often
 * a wrong retry; accepting the obvious alias costs nothing.
 *
 * Uses the zod v4 API (shipped inside zod 3.25 as `zod/v4`) because its `.meta()` lands in
 * the JSON schema the SDK publishes: that is how the loose object still advertises its
 * canonical `required` list.
 */
import * as z from 'zod/v4';
import { DEFAULT_TOKENS, MAX_TOKENS, MIN_TOKENS } from '../search/budget';

/** Names accepted for a library id, canonical first for `query-docs`. */
export const LIBRARY_ID_NAMES = ['libraryId', 'libraryID', 'context7CompatibleLibraryID', 'library_id', 'libraryName'] as const;
/** Names accepted for the question, canonical first for `query-docs` and `resolve-library-id`. */
export const QUERY_NAMES = ['query', 'userQuery', 'question', 'topic'] as const;

/** Arguments after validation: the declared fields plus whatever else the client sent. */
export type ToolArguments = Record<string, unknown>;

/**
 * A loose object schema whose published JSON schema requires `required` (the canonical
 * names), while validation leaves every field optional so aliases can stand in.
 */
export function looseArguments(shape: Record<string, z.ZodType>, required: readonly string[]): z.ZodType<ToolArguments> {
  return z.looseObject(shape).meta({ required: [...required] });
}

/** The first non-blank string among `names`, in order (so the canonical name wins). */
export function pickString(args: ToolArguments, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = args[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** `tokens` as a number; numeric strings ("5000") are accepted, as models send them. */
export const tokensArgument = z
  .preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number())
  .optional()
  .describe(`Maximum number of tokens of documentation to return (default ${DEFAULT_TOKENS}, from ${MIN_TOKENS} to ${MAX_TOKENS}).`);

/**
 * The token budget of a tool call. Out-of-range values are clamped rather than refused
 * (unlike the HTTP API): a model that asks for 50 tokens is better served by 100 than by
 * an error and a retry.
 */
export function tokenBudget(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return DEFAULT_TOKENS;
  return Math.min(MAX_TOKENS, Math.max(MIN_TOKENS, Math.round(raw)));
}

/** The newer Context7 inputs of query-docs (and get-library-docs): a version and a code language. */
export const versionArguments = {
  version: z
    .string()
    .optional()
    .describe(
      'Optional: the library version to answer from, e.g. "3.2.0" (as in the project\'s lockfile). An exact version that is not indexed is refused with the available ones; to accept the nearest indexed version say "closest:3.1.4", or a range like "^3" or "~8.2". The answer\'s first line says which version was served.',
    ),
  language: z.string().optional().describe('Optional: a code language, e.g. "python" or "typescript": sections with examples in it come first.'),
  languageOnly: z
    .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
    .optional()
    .describe('Optional: with language, only sections whose examples are in that language.'),
  projectId: z
    .string()
    .optional()
    .describe(
      "Optional: a Shelfmark project (prj_...) made from the code base's lockfile: without a version, the library is answered at the version the project pins.",
    ),
};

/** The version and language inputs of a call, as the backend takes them. */
export function versionInputs(args: ToolArguments): { version?: string; language?: string; languageOnly?: boolean; projectId?: string } {
  const version = pickString(args, ['version', 'libraryVersion']);
  const language = pickString(args, ['language', 'lang']);
  const projectId = pickString(args, ['projectId', 'project', 'project_id']);
  return {
    ...(version ? { version } : {}),
    ...(language ? { language } : {}),
    ...(args.languageOnly === true ? { languageOnly: true } : {}),
    ...(projectId ? { projectId } : {}),
  };
}
