/** `shelfmark code <libraryId> <operation> [<query or path>]`: the library's code at the indexed version. */
import { CliError, EXIT } from '../errors';
import { COMMON_USAGE, intOption, output, parseCommand, type Command } from '../command';

const USAGE = `Usage: shelfmark code <libraryId> search <text> [--regex] [--case-sensitive|--ignore-case] [--path <p>]
       shelfmark code <libraryId> definition|references <symbol> [--path <p>]
       shelfmark code <libraryId> outline <file or folder>
       shelfmark code <libraryId> read <file> [--start <line>] [--end <line>]
Options of all: [--version <v>] [--limit <n>]

Reads a Git library's source at exactly the commit its docs were indexed from (GET /v2/code):
search (literal, or a JavaScript regular expression with --regex, matched within a line;
case-sensitive only when the text has a capital letter unless told), where a symbol is
defined or used, the outline of a file (or the files of a folder), or lines of a file
(at most 400 a call). --path narrows search, definition and references to a folder, file or
glob. The first line says which version and commit were read. Exit 4 when the library,
version or file is not found (or its code is not kept).

${COMMON_USAGE}`;

const OPERATIONS = ['search', 'definition', 'references', 'outline', 'read'];

export const codeCommand: Command = {
  name: 'code',
  summary: "the library's code at the indexed version",
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(
      codeCommand,
      argv,
      {
        regex: { type: 'boolean' },
        'case-sensitive': { type: 'boolean' },
        'ignore-case': { type: 'boolean' },
        path: { type: 'string' },
        start: { type: 'string' },
        end: { type: 'string' },
        limit: { type: 'string' },
        version: { type: 'string' },
      },
      { min: 3, max: 3 },
    );
    const [libraryId, operation, target] = p.positionals;
    if (!OPERATIONS.includes(operation)) throw new CliError(`operation must be one of ${OPERATIONS.join(', ')}.\n\n${USAGE}`, EXIT.usage);
    const byPath = operation === 'outline' || operation === 'read';
    const caseSensitive = p.values['case-sensitive'] === true ? 'true' : p.values['ignore-case'] === true ? 'false' : undefined;
    const query = {
      libraryId,
      operation,
      ...(byPath ? { path: target } : { query: target, path: p.values.path as string | undefined }),
      regex: p.values.regex === true ? 'true' : undefined,
      caseSensitive,
      startLine: intOption(p.values.start, 'start', { min: 1, max: 10_000_000 }),
      endLine: intOption(p.values.end, 'end', { min: 1, max: 10_000_000 }),
      limit: intOption(p.values.limit, 'limit', { min: 1, max: 200 }),
      version: p.values.version as string | undefined,
      type: p.json ? 'json' : 'txt',
    };
    const res = await p.api.request('GET', '/v2/code', { query });
    if (p.json) output(p, await res.json(), () => '');
    else process.stdout.write(`${(await res.text()).trimEnd()}\n`);
  },
};
