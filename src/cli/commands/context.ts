/** `shelfmark context <libraryId> <query> [--tokens n]`: documentation for a question. */
import { COMMON_USAGE, intOption, output, parseCommand, type Command } from '../command';

const USAGE = `Usage: shelfmark context <libraryId> <query> [--tokens <n>] [--version <v>] [--project <prj_…>] [--language <lang> [--language-only]]

Prints documentation of a library (/owner/repo, /owner/repo/version or /owner/repo@version)
for a question, within a token budget (default 5000; 100 to 100000), as the text an AI
assistant gets (its first line says which version it came from); with --json the JSON form
with each snippet's source and score and the answer's provenance. --version takes a version,
a semver range (^4, ~8.2) or closest:<version>; --language ranks examples in that language
first (--language-only keeps only those); --project answers at the version the project's
lockfile pins when no version is named (see shelfmark project).

${COMMON_USAGE}`;

export const contextCommand: Command = {
  name: 'context',
  summary: 'documentation of a library for a question',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(
      contextCommand,
      argv,
      {
        tokens: { type: 'string' },
        version: { type: 'string' },
        language: { type: 'string' },
        'language-only': { type: 'boolean' },
        project: { type: 'string' },
      },
      { min: 2, max: 2 },
    );
    const tokens = intOption(p.values.tokens, 'tokens', { min: 100, max: 100_000 });
    const options = {
      version: p.values.version as string | undefined,
      language: p.values.language as string | undefined,
      languageOnly: p.values['language-only'] === true ? 'true' : undefined,
      projectId: p.values.project as string | undefined,
    };
    const query = { libraryId: p.positionals[0], query: p.positionals[1], tokens, type: p.json ? 'json' : 'txt', ...options };
    const res = await p.api.request('GET', '/v2/context', { query });
    if (p.json) output(p, await res.json(), () => '');
    else process.stdout.write(`${(await res.text()).trimEnd()}\n`);
  },
};
