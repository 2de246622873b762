/**
 * Plain text (.txt): no structure to trust, so blank-line paragraphs grouped into info
 * snippets under a title made from the file name.
 */
import type { ParsedSnippet, SourceDocument } from '../types';
import { blocksToSnippets, type DocBlock } from './sections';
import { isBlank, numberLines, titleFromPath, type SourceLine } from './text-utils';

/** Splits one plain-text document into info snippets. Never throws. */
export function splitTextIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const blocks: DocBlock[] = [];
  let para: SourceLine[] = [];
  const flush = () => {
    // Line breaks stay: in plain text they may be a list, an address or a poem.
    const text = para
      .map((p) => p.text.trimEnd())
      .join('\n')
      .trim();
    if (text !== '') blocks.push({ kind: 'prose', text, line: para[0].line });
    para = [];
  };
  for (const line of numberLines(doc.text)) {
    if (isBlank(line.text)) flush();
    else para.push(line);
  }
  if (para.length > 0) flush();
  return blocksToSnippets(blocks, { path: doc.path, pageTitle: titleFromPath(doc.path) });
}
