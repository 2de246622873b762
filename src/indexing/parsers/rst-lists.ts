/**
 * reST list items: what starts one, and the numbers Sphinx gives auto-numbered ones (rst.ts
 * reads paragraphs through these).
 */
import { indentWidth, isBlank, type SourceLine } from './text-utils';

/** A bullet, an enumerator (`1.`, `(2)`, `a)`) or an auto-enumerator (`#.`, `#)`, `(#)`), then a space. */
export const LIST_ITEM = /^\s*([-*+•]|\d+[.)]|#[.)]|\((?:\d+|#)\)|[a-zA-Z][.)])\s+/;

/** The last number given at each indentation of the auto-numbered (`#.`) lists open in a parse. */
export type AutoNumbers = Map<number, number>;
const AUTO_ITEM = /^(\s*)(#\.|#\)|\(#\))(?=\s)/;

/**
 * Auto-numbered items (`#.`, `#)`, `(#)`) get the numbers Sphinx renders: one more than the
 * list's item before, across paragraphs and literal blocks. A paragraph at or left of a list's
 * indentation that is not one of its items ends it (as does a heading, in parseRst); an item
 * of another kind starts another list.
 */
export function autoNumbered(para: readonly SourceLine[], numbers: AutoNumbers): SourceLine[] {
  const first = para.find((p) => !isBlank(p.text));
  if (first && !LIST_ITEM.test(first.text)) for (const k of [...numbers.keys()]) if (k >= indentWidth(first.text)) numbers.delete(k);
  return para.map((p) => {
    if (!LIST_ITEM.test(p.text)) return p;
    const indent = indentWidth(p.text);
    for (const k of [...numbers.keys()]) if (k > indent) numbers.delete(k);
    const auto = AUTO_ITEM.exec(p.text);
    if (!auto) {
      numbers.delete(indent);
      return p;
    }
    const n = (numbers.get(indent) ?? 0) + 1;
    numbers.set(indent, n);
    const marker = auto[2] === '(#)' ? `(${n})` : `${n}${auto[2].slice(1)}`;
    return { ...p, text: auto[1] + marker + p.text.slice(auto[0].length) };
  });
}
