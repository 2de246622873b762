/**
 * How readable a library's snippets are as units (scripts/eval/fidelity-report.ts, and tests):
 * prose that announces an example the snippet does not hold ("…as follows:" with the code
 * elsewhere), sections split into a prose snippet and code "twins", later parts of long
 * sections, the largest snippet, and pages by kind. Counted the same way for snippets made
 * before section snippets (kind twins, "(continued, part k of n)" parts), so figures compare.
 */
import type { SnippetDocument } from '../../search/types';

type Shaped = Pick<SnippetDocument, 'kind' | 'path' | 'title' | 'breadcrumb' | 'content' | 'code' | 'description' | 'tokens' | 'pageKind' | 'part'>;

export interface SnippetShape {
  /** Snippets whose prose ends announcing something (a colon) with no example after it in the snippet. */
  dangling: number;
  /** Sections served as both a prose snippet and code snippets. */
  twins: number;
  /** Later parts of long sections. */
  laterParts: number;
  /** Tokens of the largest snippet. */
  largest: number;
  /** Pages by kind (absent kind: guide). */
  pagesByKind: Record<string, number>;
  /** Pages for maintainers and redirect stubs that were indexed. */
  junkPages: number;
}

/**
 * The snippet ends with prose announcing something ("…as follows:") that is not in it: its
 * text (prose with any examples in place) ends with a colon. A snippet of code alone (empty
 * `content`: its description introduces the code right after it) never dangles.
 */
export function announcesMissingExample(s: Pick<Shaped, 'content'>): boolean {
  return /:\s*$/.test(s.content) && !/```\s*$/.test(s.content);
}

/** `isJunkPage` judges pages indexed without a kind (before kinds existed) by their path. */
export function snippetShape(docs: readonly Shaped[], isJunkPage: (path: string) => boolean = () => false): SnippetShape {
  const sections = new Map<string, { kinds: Set<string>; whole: boolean }>();
  const pages = new Map<string, string>();
  let dangling = 0;
  let laterParts = 0;
  let largest = 0;
  for (const d of docs) {
    if (announcesMissingExample(d)) dangling++;
    if ((d.part ?? 0) > 0 || /\(continued, part \d+ of \d+\)/.test(d.content)) laterParts++;
    largest = Math.max(largest, d.tokens);
    const key = `${d.path}\u0000${d.breadcrumb.join('\u0000')}\u0000${d.title}`;
    const section = sections.get(key) ?? { kinds: new Set<string>(), whole: false };
    section.kinds.add(d.kind);
    // A snippet without a part number is a whole section (or a twin of the old shape).
    if (d.part === undefined) section.whole = true;
    sections.set(key, section);
    pages.set(d.path, d.pageKind ?? (isJunkPage(d.path) ? 'internal' : 'guide'));
  }
  const pagesByKind: Record<string, number> = {};
  for (const kind of pages.values()) pagesByKind[kind] = (pagesByKind[kind] ?? 0) + 1;
  // Parts of one long section may differ in kind (one holds an example, one does not): not twins.
  const twins = [...sections.values()].filter((s) => s.whole && s.kinds.size > 1).length;
  return { dangling, twins, laterParts, largest, pagesByKind, junkPages: (pagesByKind.internal ?? 0) + (pagesByKind.stub ?? 0) };
}
