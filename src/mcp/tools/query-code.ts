/**
 * `query-code`: the library's source code at the version its docs were indexed from
 * (Context7 previews a code tool of this name for public libraries; its arguments are not
 * published, so ours follow query-docs: `libraryId` and `query`, plus what code navigation
 * needs). One tool with an `operation` rather than five tools: a model picks it by one
 * description, and the operations share the library, version and bounds.
 */
import * as z from 'zod/v4';
import { ValidationError } from '../../errors';
import { LIBRARY_ID_NAMES, looseArguments, pickString } from '../arguments';
import type { CodeQueryInput } from '../backend';
import type { ShelfmarkTool } from './tool';

const OPERATIONS = ['search', 'definition', 'references', 'outline', 'read'] as const;

const wholeNumber = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().int().min(0)).optional();
const yesNo = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).optional();

function numberArg(args: Record<string, unknown>, names: string[]): number | undefined {
  for (const n of names) if (typeof args[n] === 'number' && Number.isFinite(args[n])) return Math.round(args[n] as number);
  return undefined;
}

export const queryCodeTool: ShelfmarkTool = {
  name: 'query-code',
  title: 'Query library source code',
  description: `Reads a library's source code at exactly the version (commit) its documentation was indexed from: search it (text or regular expression), find where a symbol is defined or used, outline a file, or read lines of a file. Use it when the docs do not answer (internal behaviour, exact signatures, defaults) or to check an example against the real code.

Call resolve-library-id first for the library ID unless the user gave one like /org/project. Operations:
- search: query = text to find (regex=true for a JavaScript regular expression, matched within a line); path narrows to a folder, file or glob.
- definition: query = a symbol, e.g. "createServer" or "Application.use".
- references: query = a symbol: the lines that name it.
- outline: path = a file (its classes, functions, methods with line numbers) or a folder (its files).
- read: path = a file; startLine/endLine (at most 400 lines a call).
The answer's first line says which version and commit were read.`,
  inputSchema: looseArguments(
    {
      libraryId: z.string().optional().describe("Library ID, e.g. '/koajs/koa' or '/koajs/koa/2.16.4', from resolve-library-id or the user."),
      operation: z.enum(OPERATIONS).optional().describe('search (default), definition, references, outline or read.'),
      query: z.string().optional().describe('search: the text or pattern; definition and references: the symbol name.'),
      path: z
        .string()
        .optional()
        .describe('outline and read: the file (outline of a folder lists its files); search, definition, references: a folder, file or glob to look in.'),
      regex: yesNo.describe('search: query is a regular expression.'),
      caseSensitive: yesNo.describe('search: by default case-sensitive only when query has a capital letter.'),
      startLine: wholeNumber.describe('read: the first line (1-based).'),
      endLine: wholeNumber.describe('read: the last line.'),
      limit: wholeNumber.describe('At most this many results (default 30, at most 200).'),
      version: z
        .string()
        .optional()
        .describe('The version to read, e.g. "2.16.4" (as in the lockfile), a range like "^2" or "closest:2.16.0"; default: the library\'s default version.'),
    },
    ['libraryId'],
  ),
  async run(args, backend) {
    const libraryId = pickString(args, LIBRARY_ID_NAMES);
    if (!libraryId)
      throw new ValidationError('query-code needs `libraryId`: a library ID like /org/project. Call resolve-library-id first to find it.', 'libraryId');
    const rawOperation = pickString(args, ['operation', 'op', 'action']) ?? 'search';
    const operation = OPERATIONS.find((o) => o === rawOperation.toLowerCase());
    if (!operation) throw new ValidationError(`query-code: operation must be one of ${OPERATIONS.join(', ')}.`, 'operation');
    const query = pickString(args, ['query', 'symbol', 'pattern', 'text', 'userQuery']);
    const path = pickString(args, ['path', 'file', 'filePath']);
    const version = pickString(args, ['version', 'libraryVersion']);
    const limit = numberArg(args, ['limit', 'maxResults']);
    const input: CodeQueryInput = {
      libraryId,
      operation,
      ...(query ? { query } : {}),
      ...(path ? { path } : {}),
      ...(typeof args.regex === 'boolean' ? { regex: args.regex } : {}),
      ...(typeof args.caseSensitive === 'boolean' ? { caseSensitive: args.caseSensitive } : {}),
      ...(numberArg(args, ['startLine']) ? { startLine: numberArg(args, ['startLine']) } : {}),
      ...(numberArg(args, ['endLine']) ? { endLine: numberArg(args, ['endLine']) } : {}),
      // Out of range is clamped, as tokens are: a retry costs the model more than a bound.
      ...(limit !== undefined ? { limit: Math.min(200, Math.max(1, limit)) } : {}),
      ...(version ? { version } : {}),
    };
    return backend.queryCode(input);
  },
};
