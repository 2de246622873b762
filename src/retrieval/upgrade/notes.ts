/**
 * The release notes and migration guides between two versions of a library, from what is
 * indexed: changelog sections whose heading names a version in (from, to], and migration
 * guides (and release-note pages) about a version in that span (their `pageVersion`, decided
 * at index time by indexing/discover/page-kind.ts). From those, what an upgrade must deal
 * with first: breaking changes, deprecations, codemods, new features. Pure.
 */
import semver from 'semver';
import type { SnippetDocument } from '../../search/types';
import { fencedBlocks, proseOf } from '../../search/format/fence';
import { isPageIntro } from '../../search/page-evidence';

/** The stored fields an upgrade guide reads of a snippet. */
export const GUIDE_FIELDS = [
  'id',
  'kind',
  'title',
  'breadcrumb',
  'pageTitle',
  'description',
  'content',
  'code',
  'language',
  'path',
  'url',
  'startLine',
  'tokens',
  'pageKind',
  'pageVersion',
  'part',
] as const satisfies ReadonlyArray<keyof SnippetDocument>;

export type GuideSnippet = Pick<SnippetDocument, (typeof GUIDE_FIELDS)[number]>;

export type NoteKind = 'breaking' | 'deprecated' | 'codemod' | 'new' | 'change';

/** One thing the summary lists: a section of a guide, or a line of release notes. */
export interface UpgradeNote {
  kind: NoteKind;
  text: string;
  /** The section it comes from ("Page > Heading") and its link. */
  section: string;
  url: string;
  /** The version the note leads to, when known. */
  version?: string;
}

/** A version as semver, leniently ("v3.2.0" → 3.2.0, "3" → 3.0.0); null when not one. */
export function looseVersion(name: string | undefined): semver.SemVer | null {
  if (!name) return null;
  return semver.parse(name.replace(/^v(?=\d)/, '')) ?? semver.coerce(name);
}

const HEADING_VERSION = /^(?:version\s+|release\s+|v)?(\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)\b/i;

/** The version a changelog section's heading names (its deepest heading that names one). */
export function sectionVersion(doc: Pick<GuideSnippet, 'breadcrumb' | 'title'>): string | undefined {
  const headings = doc.breadcrumb.length > 0 ? doc.breadcrumb : [doc.title];
  for (let i = headings.length - 1; i >= 0; i--) {
    const m = HEADING_VERSION.exec(headings[i]!.replace(/`/g, '').trim());
    if (m) return m[1];
  }
  return undefined;
}

/** Whether `v` lies in (from, to]. */
function inSpan(v: semver.SemVer, from: semver.SemVer, to: semver.SemVer): boolean {
  return semver.gt(v, from) && semver.lte(v, to);
}

/** A page version ("9", "3.0") against the span: by major when it names only a major. */
function pageInSpan(pageVersion: string, from: semver.SemVer, to: semver.SemVer): boolean {
  const onlyMajor = /^v?\d+$/.test(pageVersion.trim());
  const v = looseVersion(pageVersion);
  if (!v) return false;
  return onlyMajor ? v.major > from.major && v.major <= to.major : inSpan(v, from, to);
}

/**
 * The sections of release notes and migration guides between two versions, in reading order:
 * migration guides first (by the version they lead to, then page and line), then changelog
 * sections (oldest release first). `docs` are the snippets of both versions, the later version's
 * first: a section both hold is taken once, as the later version has it.
 */
export function notesBetween(docs: readonly GuideSnippet[], fromName: string, toName: string): { guides: GuideSnippet[]; releaseNotes: GuideSnippet[] } {
  const from = looseVersion(fromName);
  const to = looseVersion(toName);
  if (!from || !to) return { guides: [], releaseNotes: [] };
  const seen = new Set<string>();
  const guides: GuideSnippet[] = [];
  const releaseNotes: GuideSnippet[] = [];
  for (const doc of docs) {
    const key = `${doc.path}\u0000${doc.breadcrumb.join('\u0000')}\u0000${doc.title}\u0000${doc.part ?? 0}`;
    if (seen.has(key)) continue;
    if (doc.pageKind === 'migration' && doc.pageVersion && pageInSpan(doc.pageVersion, from, to)) {
      seen.add(key);
      guides.push(doc);
    } else if (doc.pageKind === 'changelog') {
      const v = looseVersion(sectionVersion(doc));
      const whole = v === null && doc.pageVersion !== undefined && pageInSpan(doc.pageVersion, from, to);
      if ((v && inSpan(v, from, to)) || whole) {
        seen.add(key);
        releaseNotes.push(doc);
      }
    }
  }
  const byPlace = (a: GuideSnippet, b: GuideSnippet) => a.path.localeCompare(b.path) || a.startLine - b.startLine || (a.part ?? 0) - (b.part ?? 0);
  guides.sort((a, b) => (looseVersion(a.pageVersion)?.compare(looseVersion(b.pageVersion) ?? '0.0.0') ?? 0) || byPlace(a, b));
  const versionOf = (d: GuideSnippet) => looseVersion(sectionVersion(d)) ?? looseVersion(d.pageVersion) ?? semver.parse('0.0.0')!;
  releaseNotes.sort((a, b) => versionOf(a).compare(versionOf(b)) || byPlace(a, b));
  return { guides, releaseNotes };
}

const BREAKING =
  /\b(breaking|removed?|removal|no longer|dropp?(ed|ing)?\b|drop support|renamed?|replaced?|instead of|must now|now requires?|requires? node|minimum|not supported|unsupported|changed? (the )?(default|behaviou?r|signature|return)|now (returns?|throws?|defaults?)|takes? precedence|precedence (over|of))\b/i;
const DEPRECATED = /\bdeprecat\w*/i;
const CODEMOD = /\bcodemods?\b/i;
const NEW = /\b(new features?|added|adds|introduc\w+|now supports?|support for)\b/i;

/** What a note is about, from its words (and its guide's heading path, "Breaking Changes > …"). */
export function classifyNote(text: string, headings: readonly string[] = []): NoteKind {
  const path = headings.join(' > ');
  if (CODEMOD.test(text)) return 'codemod';
  if (DEPRECATED.test(text) && !/\bremoved?\b/i.test(text)) return 'deprecated';
  if (/breaking/i.test(path) || BREAKING.test(text)) return 'breaking';
  if (/new features?|what'?s new|new in/i.test(path) || NEW.test(text)) return 'new';
  return 'change';
}

/** The list items of a section's prose (`- …`, `* …`, `1. …`), one line each. */
function listItems(markdown: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  for (const line of proseOf(markdown).split('\n')) {
    const item = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      if (current !== undefined) out.push(current);
      current = item[1]!.trim();
    } else if (current !== undefined && /^\s{2,}\S/.test(line)) {
      current += ` ${line.trim()}`;
    } else if (current !== undefined) {
      out.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) out.push(current);
  return out;
}

function sectionName(doc: Pick<GuideSnippet, 'breadcrumb' | 'title'>): string {
  return doc.breadcrumb.length > 0 ? doc.breadcrumb.join(' > ') : doc.title;
}

/** Tidies a line for the summary: markup of roles and links dropped, at most 300 characters. */
function tidy(text: string): string {
  const plain = text
    .replace(/:(issue|pr|ghsa|func|meth|class|attr|data|ref|doc):`([^`]*)`/g, '$2')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 300 ? `${plain.slice(0, 297)}...` : plain;
}

/**
 * The notes of the summary: every section of a migration guide is one note (its heading, what
 * kind by its heading path and words; the lead sentence of its prose); release notes give one
 * note per list item that breaks, deprecates or offers a codemod (the rest are counted, and
 * read on the detail pages). Codemods named anywhere are notes of their own.
 */
export function summaryNotes(guides: readonly GuideSnippet[], releaseNotes: readonly GuideSnippet[]): { notes: UpgradeNote[]; otherReleaseNotes: number } {
  const notes: UpgradeNote[] = [];
  for (const doc of guides) {
    if ((doc.part ?? 0) > 0) continue;
    const heading = doc.breadcrumb.at(-1) ?? doc.title;
    // A guide's title section or a bare list heading carries no change of its own.
    if (isPageIntro(doc) && listItems(doc.content).length === 0 && proseOf(doc.content).length < 80) continue;
    const body = proseOf(doc.content);
    const first = body.split(/(?<=[.!?])\s/)[0] ?? '';
    // A lead that is only a list marker or a colon's intro says nothing on its own.
    const lead = first.length >= 20 && !/^\d+[.)]$/.test(first.trim()) ? first : '';
    const kind = classifyNote(`${heading} ${body.slice(0, 400)}`, doc.breadcrumb.slice(0, -1));
    notes.push({
      kind,
      text: tidy(lead && lead.length < 240 ? `${heading}: ${lead}` : heading),
      section: sectionName(doc),
      url: doc.url,
      ...(doc.pageVersion ? { version: doc.pageVersion } : {}),
    });
    for (const line of body.split('\n'))
      if (CODEMOD.test(line) && kind !== 'codemod') notes.push({ kind: 'codemod', text: tidy(line), section: sectionName(doc), url: doc.url });
  }
  let otherReleaseNotes = 0;
  for (const doc of releaseNotes) {
    const version = sectionVersion(doc) ?? doc.pageVersion;
    const items = listItems(doc.content);
    const lines = items.length > 0 ? items : [doc.breadcrumb.at(-1) ?? doc.title];
    for (const line of lines) {
      const kind = classifyNote(line);
      if (kind === 'breaking' || kind === 'deprecated' || kind === 'codemod')
        notes.push({ kind, text: tidy(line), section: sectionName(doc), url: doc.url, ...(version ? { version } : {}) });
      else otherReleaseNotes++;
    }
  }
  return { notes, otherReleaseNotes };
}

/** A section as Markdown for the detail pages: its heading path, link and content (or code). */
export function renderSection(doc: GuideSnippet): string {
  const body =
    doc.content !== ''
      ? doc.content
      : fencedBlocks(`\`\`\`${doc.language}\n${doc.code}\n\`\`\``)
          .map((b) => `\`\`\`${b.language}\n${b.code}\n\`\`\``)
          .join('\n');
  return `### ${sectionName(doc)}\n\nSource: ${doc.url}\n\n${doc.description && doc.content === '' ? `${doc.description}\n\n` : ''}${body}`;
}
