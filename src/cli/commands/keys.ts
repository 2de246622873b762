/**
 * `shelfmark keys create <name> | list | delete <id>`: the signed-in user's API keys.
 * The server lets only a dashboard session manage keys (a leaked key must not mint keys
 * that outlive it), so these commands sign in with SHELFMARK_USERNAME and
 * SHELFMARK_PASSWORD, act, and sign out; an API key is not used for them.
 */
import { COMMON_USAGE, output, parseCommand, table, type Command, type Parsed } from '../command';
import { CliError, EXIT } from '../errors';

const USAGE = `Usage:
  shelfmark keys list
  shelfmark keys create <name>
  shelfmark keys delete <keyId>

Manages your API keys. Managing keys needs a signed-in user, not a key: set
SHELFMARK_USERNAME and SHELFMARK_PASSWORD. \`create\` prints the new key's value once
(the server never shows it again); \`delete\` revokes a key at once.

${COMMON_USAGE}`;

interface KeyView {
  id: string;
  name: string;
  prefix?: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

export const keysCommand: Command = {
  name: 'keys',
  summary: 'list, create or delete your API keys',
  usage: USAGE,
  async run(argv) {
    const [action, ...rest] = argv;
    if (action === '--help' || action === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    if (action !== 'list' && action !== 'create' && action !== 'delete') {
      throw new CliError(`keys: ${action ? `unknown action "${action}"` : 'say what to do'} (list, create or delete).\n\n${USAGE}`, EXIT.usage);
    }
    const p = parseCommand(keysCommand, rest, {}, action === 'list' ? { min: 0, max: 0 } : { min: 1, max: 1 });
    await signedIn(p, async () => {
      if (action === 'list') {
        const res = await p.api.json<{ keys: KeyView[] }>('GET', '/v2/admin/keys');
        output(
          p,
          res,
          () =>
            table(
              ['id', 'name', 'created', 'last used'],
              res.keys.map((k) => [k.id, k.name, k.createdAt, k.lastUsedAt ?? '-']),
            ) || 'No API keys.',
        );
      } else if (action === 'create') {
        const res = await p.api.json<KeyView & { value: string; message: string }>('POST', '/v2/admin/keys', { json: { name: p.positionals[0] } });
        output(p, res, () => `${res.value}\n`);
        if (!p.json) process.stderr.write(`Created key ${res.id} (${res.name}). ${res.message}\n`);
      } else {
        const res = await p.api.json<{ id: string; deleted: boolean; message: string }>('DELETE', `/v2/admin/keys/${encodeURIComponent(p.positionals[0])}`);
        output(p, res, () => res.message);
      }
    });
  },
};

async function signedIn(p: Parsed, work: () => Promise<void>): Promise<void> {
  const username = process.env.SHELFMARK_USERNAME;
  const password = process.env.SHELFMARK_PASSWORD;
  if (!username || !password) {
    throw new CliError('Managing API keys needs a signed-in user: set SHELFMARK_USERNAME and SHELFMARK_PASSWORD (API keys cannot manage keys).', EXIT.auth);
  }
  await p.api.signIn(username, password);
  try {
    await work();
  } finally {
    await p.api.signOut();
  }
}
