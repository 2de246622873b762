/** `shelfmark refresh <libraryId> [--branch <tag or branch>]`: re-index a library. */
import { COMMON_USAGE, output, parseCommand, type Command } from '../command';
import { followNewJob } from './jobs';

const USAGE = `Usage: shelfmark refresh <libraryId> [--branch <tag or branch>] [--token <git token>]

Fetches the library's latest documentation again (POST /v2/refresh) and waits until it is
indexed; --branch indexes that tag or branch as a version of its own.

${COMMON_USAGE}`;

export const refreshCommand: Command = {
  name: 'refresh',
  summary: 'index the latest documentation of a library again',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(refreshCommand, argv, { branch: { type: 'string' }, token: { type: 'string' } }, { min: 1, max: 1 });
    const body = {
      libraryName: p.positionals[0],
      ...(p.values.branch ? { branch: p.values.branch } : {}),
      ...(p.values.token ? { gitToken: p.values.token } : {}),
    };
    const result = await followNewJob(p, () => p.api.json<{ libraryName: string; message: string }>('POST', '/v2/refresh', { json: body }));
    output(p, result, () => result.message);
  },
};
