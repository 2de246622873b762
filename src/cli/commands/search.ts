/** `shelfmark search <name> [--query <what you want to do>]`: the library catalogue. */
import { COMMON_USAGE, output, parseCommand, table, type Command } from '../command';

const USAGE = `Usage: shelfmark search <library name> [--query <what you want to do>]

Finds libraries by name (GET /v2/libs/search); --query ranks them by their content too.
Exit 4 when nothing matches.

${COMMON_USAGE}`;

interface SearchResult {
  id: string;
  title: string;
  description: string;
  totalSnippets: number;
  trustScore: number;
  versions: string[];
}

export const searchCommand: Command = {
  name: 'search',
  summary: 'find libraries by name',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(searchCommand, argv, { query: { type: 'string' } }, { min: 1, max: 1 });
    const res = await p.api.json<{ results: SearchResult[] }>('GET', '/v2/libs/search', {
      query: { libraryName: p.positionals[0], query: p.values.query as string | undefined },
    });
    output(p, res, () =>
      table(
        ['id', 'snippets', 'trust', 'versions', 'title'],
        res.results.map((r) => [r.id, String(r.totalSnippets), String(r.trustScore), r.versions.slice(0, 5).join(',') || '-', r.title]),
      ),
    );
  },
};
