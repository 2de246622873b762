/**
 * `get-upgrade-guide`: what changes between two indexed versions of a library (arguments as
 * Context7's research-preview tool takes them: library, from, to, page). Page 1 is the summary
 * (breaking changes, deprecations, codemods, API diff), later pages the sections in full. A
 * library given by name is resolved first (the best match, said in the answer).
 */
import * as z from 'zod/v4';
import { ValidationError } from '../../errors';
import { LIBRARY_ID_NAMES, looseArguments, pickString, tokenBudget, tokensArgument } from '../arguments';
import type { ShelfmarkTool } from './tool';

export const getUpgradeGuideTool: ShelfmarkTool = {
  name: 'get-upgrade-guide',
  title: 'Upgrade guide between two versions',
  description: `Shows what changes when upgrading a library from one version to another, from its indexed documentation: page 1 lists the breaking changes, deprecations, codemods and the API diff (symbols added, removed, changed, deprecated), with links; later pages give the migration-guide and release-note sections in full. Use it when the user upgrades a dependency (e.g. koa 2 → 3) or hits errors after one.

Both versions must be indexed; if one is not, the answer lists the indexed versions and how to add it — do not substitute another version without telling the user.`,
  inputSchema: looseArguments(
    {
      library: z.string().optional().describe("The library: an ID like '/koajs/koa' (from resolve-library-id) or its name ('koa')."),
      from: z.string().optional().describe('The version upgraded from, e.g. "2.16.4" (as in the lockfile).'),
      to: z.string().optional().describe('The version upgraded to, e.g. "3.2.0"; default: the latest indexed.'),
      page: z
        .preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().int().min(1).max(1000))
        .optional()
        .describe('1 (the summary, default), then 2, 3… for the details.'),
      tokens: tokensArgument,
    },
    ['library', 'from'],
  ),
  async run(args, backend) {
    const library = pickString(args, ['library', ...LIBRARY_ID_NAMES]);
    if (!library) throw new ValidationError('get-upgrade-guide needs `library`: a library ID like /koajs/koa, or its name.', 'library');
    const from = pickString(args, ['from', 'fromVersion']);
    if (!from) throw new ValidationError('get-upgrade-guide needs `from`: the version being upgraded from, e.g. "2.16.4".', 'from');
    const to = pickString(args, ['to', 'toVersion']);
    let libraryId = library;
    let note = '';
    if (!library.startsWith('/')) {
      const found = await backend.searchLibraries({ libraryName: library });
      const best = found.libraries[0];
      if (!best) throw new ValidationError(`No library named "${library}" is indexed here: call resolve-library-id.`, 'library');
      libraryId = best.id;
      note = `(library "${library}" resolved to ${libraryId})\n\n`;
    }
    const page = typeof args.page === 'number' ? args.page : 1;
    return `${note}${await backend.upgradeGuide({ libraryId, from, ...(to ? { to } : {}), page, tokens: tokenBudget(args.tokens) })}`;
  },
};
