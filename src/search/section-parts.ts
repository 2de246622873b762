/**
 * The parts of a long section in an answer (indexing cuts a long section, or an API entry with
 * long code, into numbered parts: indexing/parsers/section-parts.ts): served together where the best of them ranks, from the
 * opening part on and in document order, the parts an answer lacks named so they can be read
 * apart, and adjacent parts merged into one snippet while they fit a ceiling, so a section
 * comes back whole rather than in pieces. Pure; answer.ts and the context use case use it.
 */
import type { RescoredCandidate } from './rescore';
import type { ContextSnippet, RankedSnippet } from './types';

/** The section (or API entry) a part belongs to; undefined for a snippet that is not a part. */
export function sectionOf(doc: RankedSnippet['doc']): string | undefined {
  return doc.part === undefined ? undefined : `${doc.path}\u0000${doc.title}\u0000${doc.breadcrumb.join('\u0000')}`;
}

/**
 * The parts of one long section served together: where the first of its parts ranks, every
 * part of it the answer holds, and the pool's parts before the last of those (its opening
 * part above all), in document order. Each group keeps its best score.
 */
export function withSectionParts(selected: readonly RankedSnippet[], pool: readonly Pick<RescoredCandidate, 'doc'>[]): RankedSnippet[][] {
  const partsOf = new Map<string, RankedSnippet['doc'][]>();
  const seen = new Set<string>();
  for (const r of pool) {
    if (seen.has(r.doc.id)) continue;
    seen.add(r.doc.id);
    const key = sectionOf(r.doc);
    if (key !== undefined) partsOf.set(key, [...(partsOf.get(key) ?? []), r.doc]);
  }
  const chosen = new Set(selected.map((s) => s.doc.id));
  const groups: RankedSnippet[][] = [];
  const done = new Set<string>();
  for (const s of selected) {
    const key = sectionOf(s.doc);
    if (key === undefined) {
      groups.push([s]);
      continue;
    }
    if (done.has(key)) continue;
    done.add(key);
    const members = partsOf.get(key) ?? [s.doc];
    const last = Math.max(...members.filter((d) => chosen.has(d.id)).map((d) => d.part ?? 0));
    const parts = members.filter((d) => (d.part ?? 0) <= last).sort((a, b) => (a.part ?? 0) - (b.part ?? 0) || a.startLine - b.startLine);
    groups.push(parts.map((doc) => ({ doc, score: s.score })));
  }
  return groups;
}

/**
 * The sections an answer holds a later part of without all the parts before it: the page,
 * title and heading path of each, and the part below which the rest must be read.
 */
export function missingParts(snippets: readonly RankedSnippet[]): { path: string; title: string; breadcrumb: string[]; below: number }[] {
  const bySection = new Map<string, { doc: RankedSnippet['doc']; parts: Set<number> }>();
  for (const s of snippets) {
    const key = sectionOf(s.doc);
    if (key === undefined) continue;
    const entry = bySection.get(key) ?? { doc: s.doc, parts: new Set<number>() };
    for (const k of partsHeld(s.doc)) entry.parts.add(k);
    if (lastHeld(s.doc) > lastHeld(entry.doc)) entry.doc = s.doc;
    bySection.set(key, entry);
  }
  const out: { path: string; title: string; breadcrumb: string[]; below: number }[] = [];
  for (const { doc, parts } of bySection.values()) {
    const last = lastHeld(doc);
    for (let k = 0; k < last; k++) {
      if (parts.has(k)) continue;
      out.push({ path: doc.path, title: doc.title, breadcrumb: [...doc.breadcrumb], below: last });
      break;
    }
  }
  return out;
}

/** Whether a snippet is a part of one of the wanted sections. */
export function isPartOf(doc: RankedSnippet['doc'], wanted: readonly { path: string; title: string; breadcrumb: string[] }[]): boolean {
  const key = sectionOf(doc);
  return key !== undefined && wanted.some((w) => sectionOf({ ...doc, path: w.path, title: w.title, breadcrumb: w.breadcrumb }) === key);
}

/** The last part a snippet holds: its own, or the last one merged into it. */
function lastHeld(doc: RankedSnippet['doc']): number {
  return doc.lastPart ?? doc.part ?? 0;
}

/** The parts a snippet holds: its own, or every one from its first to its last when merged. */
function partsHeld(doc: RankedSnippet['doc']): number[] {
  const first = doc.part ?? 0;
  return Array.from({ length: lastHeld(doc) - first + 1 }, (_, k) => first + k);
}

/**
 * Adjacent parts of one section, served in order, merged into one snippet while the merged
 * snippet stays within `ceiling` tokens: the opening part's place, source and score, the parts'
 * prose and code joined in document order, and `lastPart` naming the last part it holds. A
 * ceiling of 0 merges nothing.
 */
export function mergeParts(snippets: readonly RankedSnippet[], ceiling: number): RankedSnippet[] {
  const out: RankedSnippet[] = [];
  for (const s of snippets) {
    const prev = out.at(-1);
    const key = sectionOf(s.doc);
    const next = prev !== undefined && key !== undefined && sectionOf(prev.doc) === key && s.doc.part === lastHeld(prev.doc) + 1;
    if (!next || prev.doc.tokens + s.doc.tokens > ceiling) {
      out.push(s);
      continue;
    }
    out[out.length - 1] = { doc: joinParts(prev.doc, s.doc), score: prev.score };
  }
  return out;
}

function joinParts(first: ContextSnippet, then: ContextSnippet): ContextSnippet {
  const join = (a: string, b: string) => [a, b].filter((x) => x !== '').join('\n\n');
  return {
    ...first,
    kind: first.kind === 'code' || then.kind === 'code' ? 'code' : 'info',
    description: first.description || then.description,
    content: join(first.content, then.content),
    code: join(first.code, then.code),
    language: first.language || then.language,
    tokens: first.tokens + then.tokens,
    lastPart: then.lastPart ?? then.part,
  };
}
