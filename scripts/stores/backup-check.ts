/**
 * `node --import tsx scripts/stores/backup-check.ts`: after a restore (scripts/stores/backup.sh), checks
 * that the metadata and the snippets agree — every library version's served generation
 * holds as many snippets as its record says. Prints one line per library and exits 1 naming
 * those that do not (a build that published between the two stores' copies: refresh them).
 */
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, portsOf } from '../../src/services';
import type { Ports } from '../../src/ports';

export interface CheckedVersion {
  libraryId: string;
  version: string;
  generation: number;
  expected: number;
  found: number;
}

export async function checkServedGenerations(services: Ports): Promise<CheckedVersion[]> {
  const out: CheckedVersion[] = [];
  for (const lib of await services.libraries.list()) {
    for (const v of lib.versions.filter((x) => x.generation > 0)) {
      const found = await services.snippets.count({ libraryId: lib._id, version: v.version, generation: v.generation, baseGeneration: v.baseGeneration });
      out.push({ libraryId: lib._id, version: v.version, generation: v.generation, expected: v.totalSnippets, found });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', WORKER_MODE: 'off' });
  const composition = await createServices(config, createLogger(config.logLevel, process.stderr));
  const { lifecycle } = composition;
  const services = portsOf(composition);
  try {
    const checked = await checkServedGenerations(services);
    const bad = checked.filter((c) => c.found !== c.expected);
    const libraries = new Set(checked.map((c) => c.libraryId));
    console.log(`${libraries.size} libraries, ${checked.length} versions, ${checked.reduce((n, c) => n + c.found, 0)} snippets served`);
    for (const b of bad)
      console.log(
        `MISMATCH ${b.libraryId} (${b.version}): generation ${b.generation} has ${b.found} snippets, the record says ${b.expected}: refresh this library`,
      );
    process.exitCode = bad.length > 0 ? 1 : 0;
  } finally {
    await lifecycle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
