/** Jupyter notebooks: markdown cells as Markdown (the heading path carries across cells), code cells as code. */
import type { ParsedSnippet, SourceDocument } from '../types';
import { SnippetBuilder } from './sections';
import { scanMarkdown } from './markdown';

interface Cell {
  cell_type?: string;
  source?: string | string[];
}

export function splitNotebookIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  let nb: { cells?: Cell[]; metadata?: { kernelspec?: { language?: string }; language_info?: { name?: string } } };
  try {
    nb = JSON.parse(doc.text);
  } catch {
    return [];
  }
  if (!nb || !Array.isArray(nb.cells)) return [];
  const language = nb.metadata?.kernelspec?.language ?? nb.metadata?.language_info?.name ?? 'python';
  const builder = new SnippetBuilder(doc.path);
  // Cells have no line numbers of their own; the cell index (1-based) stands in for them.
  nb.cells.forEach((cell, index) => {
    const source = Array.isArray(cell.source) ? cell.source.join('') : typeof cell.source === 'string' ? cell.source : '';
    if (cell.cell_type === 'markdown') scanMarkdown(source.split('\n'), 0, builder, false, index);
    else if (cell.cell_type === 'code') builder.code(language, source, index + 1);
  });
  return builder.finish();
}
