/**
 * An upgrade guide as pages within a token budget: page 1 the summary (breaking changes,
 * deprecations, codemods, the API diff in counts and its first items, what is new, and what
 * is not indexed), the later pages the details — the migration guides' sections whole, then
 * the release notes, then the API diff in full — packed whole into pages of `tokens` each.
 * Pure (the token counter is passed in).
 */
import type { ApiDiff } from './api-diff';
import { renderSection, type GuideSnippet, type NoteKind, type UpgradeNote } from './notes';

export interface GuideVersion {
  version: string;
  commit: string;
  indexedAt: string;
}

export interface UpgradeGuideParts {
  libraryId: string;
  from: GuideVersion;
  to: GuideVersion;
  guides: readonly GuideSnippet[];
  releaseNotes: readonly GuideSnippet[];
  notes: readonly UpgradeNote[];
  otherReleaseNotes: number;
  diff: ApiDiff;
  /** What is not indexed and how to add it, one sentence each. */
  missing: readonly string[];
}

export interface UpgradeGuidePage {
  page: number;
  totalPages: number;
  text: string;
  tokens: number;
}

const HEADINGS: Record<NoteKind, string> = {
  breaking: 'Breaking changes',
  deprecated: 'Deprecations',
  codemod: 'Codemods',
  change: 'Other changes to check',
  new: 'New features',
};

function versionLine(v: GuideVersion): string {
  return `${v.version}${v.commit ? ` @ ${v.commit.slice(0, 12)}` : ''} (indexed ${v.indexedAt.slice(0, 10)})`;
}

/** The details, each a whole unit of text: guide sections, release-note sections, the API diff's lines. */
export function detailUnits(parts: UpgradeGuideParts): string[] {
  const units = [...parts.guides.map(renderSection), ...parts.releaseNotes.map(renderSection)];
  const d = parts.diff;
  const lines = [
    ...d.removed.map((s) => `- removed: \`${s.signature}\` (${s.url})`),
    ...d.changed.map((c) => `- changed: \`${c.from}\` → \`${c.to}\` (${c.url})`),
    ...d.deprecated.map((s) => `- deprecated: \`${s.signature}\` (${s.url})`),
    ...d.added.map((s) => `- added: \`${s.signature}\` (${s.url})`),
  ];
  for (let i = 0; i < lines.length; i += 40)
    units.push(`### API diff ${parts.from.version} → ${parts.to.version}${i > 0 ? ' (continued)' : ''}\n\n${lines.slice(i, i + 40).join('\n')}`);
  return units;
}

/** Whole units into pages of at most `budget` tokens (a unit larger than a page gets one of its own). */
export function packPages(units: readonly string[], budget: number, count: (text: string) => number): string[][] {
  const pages: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const unit of units) {
    const cost = count(unit) + 4;
    if (current.length > 0 && used + cost > budget) {
      pages.push(current);
      current = [];
      used = 0;
    }
    current.push(unit);
    used += cost;
  }
  if (current.length > 0) pages.push(current);
  return pages;
}

/** Page 1: the summary, its lists cut to the budget (what is cut is counted and on the detail pages). */
export function summaryText(parts: UpgradeGuideParts, detailPages: number, budget: number, count: (text: string) => number): string {
  const head = [
    `# Upgrading ${parts.libraryId} from ${parts.from.version} to ${parts.to.version}`,
    `Docs: from ${versionLine(parts.from)} to ${versionLine(parts.to)}; ${parts.guides.length} migration-guide sections and ${parts.releaseNotes.length} release-note sections between them are indexed.`,
  ];
  const d = parts.diff;
  const diffLine =
    d.counted.from + d.counted.to === 0
      ? 'API diff: neither version documents API symbols under their own headings (reference pages, code docs, OpenAPI operations), so none is compared.'
      : `API diff (${d.counted.from} → ${d.counted.to} documented symbols): ${d.removed.length} removed, ${d.changed.length} changed signature, ${d.deprecated.length} deprecated, ${d.added.length} added.`;
  const apiItems = [
    ...d.removed.map((s) => `- removed: \`${s.signature}\``),
    ...d.changed.map((c) => `- changed: \`${c.from}\` → \`${c.to}\``),
    ...d.deprecated.map((s) => `- deprecated: \`${s.signature}\``),
    ...d.added.map((s) => `- added: \`${s.signature}\``),
  ];
  const noteBlock = (kind: NoteKind) => {
    const items = parts.notes.filter((n) => n.kind === kind).map((n) => `- ${n.text}${n.version ? ` [${n.version}]` : ''} (${n.url})`);
    return items.length > 0 ? [{ title: `## ${HEADINGS[kind]} (${items.length})`, items }] : [];
  };
  // What breaks first, then the API diff, then what merely changed or is new.
  const blocks: Array<{ title: string; items: string[] }> = [
    ...noteBlock('breaking'),
    ...noteBlock('deprecated'),
    ...noteBlock('codemod'),
    { title: `## ${diffLine}`, items: apiItems },
    ...noteBlock('change'),
    ...noteBlock('new'),
  ];
  if (parts.otherReleaseNotes > 0)
    blocks.push({ title: `## ${parts.otherReleaseNotes} other release-note lines (fixes, additions) are on the detail pages.`, items: [] });
  if (parts.missing.length > 0) blocks.push({ title: '## Not indexed', items: parts.missing.map((m) => `- ${m}`) });
  const tail =
    detailPages > 0
      ? `${detailPages === 1 ? 'Page 2' : `Pages 2–${detailPages + 1}`}: the sections in full (migration guides, release notes, the API diff). Ask for page 2 next.`
      : 'There are no detail pages: nothing between these versions is indexed beyond this summary.';

  // A budget too small for the summary's head: said in a line that fits, never overrun.
  if (count([...head, tail].join('\n\n')) > budget) return `${head[0]}\n\nThe summary needs more than ${budget} tokens: ask again with a larger tokens value.`;
  // Blocks in order, items while the whole page (with its "… and N more" lines) fits: counted exactly.
  const shown = blocks.map(() => -1);
  const render = () => {
    const body = blocks.flatMap((b, i) => {
      if (shown[i]! < 0) return [];
      const cut = b.items.length - shown[i]!;
      return [[b.title, ...b.items.slice(0, shown[i]), ...(cut > 0 ? [`- ... and ${cut} more (on the detail pages)`] : [])].join('\n')];
    });
    return [...head, ...body, tail].join('\n\n');
  };
  fill: for (let i = 0; i < blocks.length; i++) {
    shown[i] = 0;
    if (count(render()) > budget) {
      shown[i] = -1;
      break;
    }
    for (let k = 1; k <= blocks[i]!.items.length; k++) {
      shown[i] = k;
      if (count(render()) > budget) {
        shown[i] = k - 1;
        if (count(render()) > budget) shown[i] = -1;
        break fill;
      }
    }
  }
  return render();
}

/** The page asked for (1-based); a page past the last is an empty page saying how many there are. */
export function upgradeGuidePage(parts: UpgradeGuideParts, page: number, budget: number, count: (text: string) => number): UpgradeGuidePage {
  const pages = packPages(detailUnits(parts), budget, count);
  const totalPages = 1 + pages.length;
  let text: string;
  if (page === 1) text = summaryText(parts, pages.length, budget, count);
  else if (page <= totalPages)
    text = `# Upgrading ${parts.libraryId} from ${parts.from.version} to ${parts.to.version} (page ${page} of ${totalPages})\n\n${pages[page - 2]!.join('\n\n--------------------------------\n\n')}`;
  else
    text = `# Upgrading ${parts.libraryId} from ${parts.from.version} to ${parts.to.version}\n\nThere is no page ${page}: the guide has ${totalPages} page${totalPages === 1 ? '' : 's'}.`;
  return { page, totalPages, text, tokens: count(text) };
}
