/** Plain text: paragraphs under the file's name. */
import type { ParsedSnippet, SourceDocument } from '../types';
import { SnippetBuilder } from './sections';

export function splitTextIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const builder = new SnippetBuilder(doc.path);
  const lines = doc.text.replace(/\r\n?/g, '\n').split('\n');
  let para: string[] = [];
  let start = 1;
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      if (para.length) builder.prose(para.join('\n'), start);
      para = [];
    } else {
      if (para.length === 0) start = i + 1;
      para.push(line.trimEnd());
    }
  });
  if (para.length) builder.prose(para.join('\n'), start);
  return builder.finish();
}
