/** `shelfmark sources <libraryId> [add <sourceId> [--joins <version>]]`: a merged library's sources. */
import { COMMON_USAGE, output, parseCommand, table, type Command } from '../command';
import { CliError, EXIT } from '../errors';

const USAGE = `Usage: shelfmark sources <libraryId>                              list its sources
       shelfmark sources <libraryId> add <sourceId> [--joins <version>] [--team <teamId>]

A library can be served from several sources: its own and other libraries merged into it (a
website, an llms.txt, an archive, another repository). Each is built and refreshed on its own;
their snippets are answered together, a page two sources hold once (the richer copy), and the
source's old id redirects to the library. Add a website first (shelfmark add website <url>),
then merge it: shelfmark sources /koajs/koa add /websites/koajs-com. --joins names the version
the source's default version joins (default latest: a website has no tags).

${COMMON_USAGE}`;

interface SourcesView {
  libraryId: string;
  sources: Array<{
    libraryId: string;
    role: string;
    source: string;
    state: string;
    joins: string | null;
    versions: Array<{ version: string; totalSnippets: number }>;
  }>;
}

export const sourcesCommand: Command = {
  name: 'sources',
  summary: "list a library's sources or merge another library into it",
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(sourcesCommand, argv, { joins: { type: 'string' }, team: { type: 'string' } }, { min: 1, max: 3 });
    const [libraryId, action, sourceId] = p.positionals;
    const path = `/v2/libraries${encodeURI(libraryId)}/sources${p.values.team ? `?teamId=${encodeURIComponent(String(p.values.team))}` : ''}`;
    let view: SourcesView;
    if (action === undefined) view = await p.api.json<SourcesView>('GET', path);
    else if (action === 'add' && sourceId)
      view = await p.api.json<SourcesView>('POST', path, { json: { source: sourceId, ...(p.values.joins ? { joins: p.values.joins } : {}) } });
    else throw new CliError(`sources: expected "add <sourceId>" after the library id.\n\n${USAGE}`, EXIT.usage);
    output(p, view, () =>
      table(
        ['source', 'kind', 'role', 'state', 'joins', 'versions (snippets)'],
        view.sources.map((s) => [s.libraryId, s.source, s.role, s.state, s.joins ?? '', s.versions.map((v) => `${v.version} (${v.totalSnippets})`).join(', ')]),
      ),
    );
  },
};
