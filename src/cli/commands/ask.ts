/** `shelfmark ask <query> [--libraries a,b] [--scope team|all]`: one question over several libraries. */
import { COMMON_USAGE, intOption, output, parseCommand, type Command } from '../command';
import { CliError, EXIT } from '../errors';

const USAGE = `Usage: shelfmark ask <query> [--libraries <id>[,<id>…]] [--scope team|all] [--tokens <n>] [--language <lang>]

Asks one question of several libraries (GET /v2/search): the libraries named (ids from
\`shelfmark search\`, each optionally with a version: /pydantic/pydantic/2.13.4; at most 10),
else your team's allowed libraries (--scope team) or every library you can see (the
default). Prints the answer as an assistant gets it, each snippet under its library and
version; --json the JSON form. Exit 4 when nothing relevant is found.

${COMMON_USAGE}`;

export const askCommand: Command = {
  name: 'ask',
  summary: 'one question over several libraries',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(
      askCommand,
      argv,
      { libraries: { type: 'string' }, scope: { type: 'string' }, tokens: { type: 'string' }, language: { type: 'string' } },
      { min: 1, max: 1 },
    );
    const scope = p.values.scope as string | undefined;
    if (scope !== undefined && scope !== 'team' && scope !== 'all') throw new CliError('--scope must be team or all.', EXIT.usage);
    const tokens = intOption(p.values.tokens, 'tokens', { min: 100, max: 100_000 });
    const query = {
      query: p.positionals[0],
      libraries: p.values.libraries as string | undefined,
      scope,
      tokens,
      language: p.values.language as string | undefined,
      type: p.json ? 'json' : 'txt',
    };
    const res = await p.api.request('GET', '/v2/search', { query });
    if (p.json) output(p, await res.json(), () => '');
    else process.stdout.write(`${(await res.text()).trimEnd()}\n`);
  },
};
