/**
 * Reads a graded question set in the format of shared/eval/dev.yaml and checks its shape,
 * so a typo in the file stops the run with the entry it is in rather than scoring zeros.
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import type { Qrel } from './metrics';
import type { SectionQrel } from './sections';

export interface EvalEntry {
  /** Position in the file (0-based), to find the entry again. */
  index: number;
  library: string;
  /** Omitted = the library's latest version. */
  version?: string;
  query: string;
  intent: string;
  qrels: Qrel[];
  /** The qrels with their section headings, when the set labels sections (dev-sections.yaml). */
  sections?: SectionQrel[];
}

/** File-level qrels: a path repeated once per section counts once, with its highest grade. */
function collapse(qrels: readonly SectionQrel[]): Qrel[] {
  const grades = new Map<string, number>();
  for (const q of qrels) grades.set(q.path, Math.max(q.grade, grades.get(q.path) ?? 0));
  return [...grades].map(([path, grade]) => ({ path, grade }));
}

export class DatasetError extends Error {}

/** `/owner/repo` or `/owner/repo/<version>`: the libraryId the context API takes. */
export function libraryIdOf(entry: Pick<EvalEntry, 'library' | 'version'>): string {
  return entry.version === undefined ? entry.library : `${entry.library}/${entry.version}`;
}

export function readDataset(file: string): EvalEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new DatasetError(`Cannot read the dataset ${file}: ${(error as Error).message}. Pass the path of a YAML file like shared/eval/dev.yaml.`);
  }
  return parseDataset(yaml.load(text), file);
}

/** Validates a parsed YAML document; throws DatasetError naming the bad entry. */
export function parseDataset(doc: unknown, name = 'dataset'): EvalEntry[] {
  const entries = (doc as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries) || entries.length === 0) throw new DatasetError(`${name}: expected a non-empty \`entries:\` list.`);
  return entries.map((raw, index) => {
    const where = `${name}: entry ${index + 1}`;
    const e = raw as Record<string, unknown>;
    const text = (field: string): string => {
      const v = e?.[field];
      if (typeof v !== 'string' || v.trim() === '') throw new DatasetError(`${where}: \`${field}\` must be a non-empty string.`);
      return v.trim();
    };
    const library = text('library');
    if (!/^\/[^/\s]+\/[^/\s]+$/.test(library)) throw new DatasetError(`${where}: library ${library} is not of the form /owner/repo.`);
    // YAML reads `version: 2.0` as a number; quote versions in the file to keep "2.0".
    const version = e.version === undefined || e.version === null ? undefined : String(e.version);
    if (!Array.isArray(e.qrels) || e.qrels.length === 0) throw new DatasetError(`${where}: \`qrels\` must be a non-empty list.`);
    const qrels = e.qrels.map((q: unknown, j: number) => {
      const r = q as Record<string, unknown>;
      if (typeof r?.path !== 'string' || r.path === '') throw new DatasetError(`${where}: qrel ${j + 1} has no path.`);
      if (typeof r.grade !== 'number' || !Number.isInteger(r.grade) || r.grade < 0)
        throw new DatasetError(`${where}: qrel ${r.path} needs a whole-number grade ≥ 0.`);
      if (r.section !== undefined && typeof r.section !== 'string') throw new DatasetError(`${where}: qrel ${r.path} has a section that is not a string.`);
      return { path: r.path, grade: r.grade, section: typeof r.section === 'string' ? r.section : undefined };
    });
    const labelled = qrels.every((q) => q.section !== undefined);
    if (!labelled && qrels.some((q) => q.section !== undefined)) throw new DatasetError(`${where}: either every qrel names its section or none does.`);
    const sections = labelled ? qrels.map((q) => ({ path: q.path, grade: q.grade, section: q.section ?? '' })) : undefined;
    return {
      index,
      library,
      ...(version !== undefined ? { version } : {}),
      query: text('query'),
      intent: text('intent'),
      qrels: sections ? collapse(sections) : qrels.map((q) => ({ path: q.path, grade: q.grade })),
      ...(sections ? { sections } : {}),
    };
  });
}
