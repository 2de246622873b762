/** `shelfmark upgrade <libraryId> <from> [<to>] [--page n]`: an upgrade guide between two indexed versions. */
import { COMMON_USAGE, intOption, output, parseCommand, type Command } from '../command';

const USAGE = `Usage: shelfmark upgrade <libraryId> <from> [<to>] [--page <n>] [--tokens <n>]

Prints the upgrade guide of a library (/owner/repo) from one indexed version to another
(default: the latest indexed), GET /v2/upgrade-guide: page 1 the summary (breaking changes,
deprecations, codemods, the API diff), later pages the sections in full. Exit 4 when a
version is not indexed (the message lists the indexed ones and how to add it).

${COMMON_USAGE}`;

export const upgradeCommand: Command = {
  name: 'upgrade',
  summary: 'upgrade guide between two indexed versions',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(upgradeCommand, argv, { page: { type: 'string' }, tokens: { type: 'string' } }, { min: 2, max: 3 });
    const page = intOption(p.values.page, 'page', { min: 1, max: 1000 });
    const tokens = intOption(p.values.tokens, 'tokens', { min: 100, max: 100_000 });
    const [libraryId, from, to] = p.positionals;
    const res = await p.api.request('GET', '/v2/upgrade-guide', { query: { libraryId, from, to, page, tokens, type: p.json ? 'json' : 'txt' } });
    if (p.json) output(p, await res.json(), () => '');
    else process.stdout.write(`${(await res.text()).trimEnd()}\n`);
  },
};
