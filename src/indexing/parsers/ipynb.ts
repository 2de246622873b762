/**
 * Jupyter notebooks (.ipynb, nbformat 4 and the older worksheets of nbformat 3). Markdown
 * cells are read as Markdown with the heading path carrying across cells; code cells are code
 * snippets introduced by the prose before them. Outputs are not documentation and are skipped.
 */
import type { ParsedSnippet, SourceDocument } from '../types';
import { markdownToBlocks } from './markdown';
import { blocksToSnippets, firstTitle, type DocBlock } from './sections';
import { dedentBlock, normaliseLanguage, numberLines, titleFromPath } from './text-utils';

type Json = Record<string, unknown>;

interface Cell {
  kind: 'markdown' | 'code' | 'other';
  source: string;
}

/** Splits one notebook into snippets; malformed JSON gives no snippets. Never throws. */
export function splitNotebookIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  let notebook: unknown;
  try {
    notebook = JSON.parse(doc.text);
  } catch {
    return [];
  }
  if (!isRecord(notebook)) return [];
  const cells = notebookCells(notebook);
  const language = notebookLanguage(notebook);
  const lines = sourceLines(doc.text, cells.length);
  const blocks: DocBlock[] = [];
  cells.forEach((cell, index) => {
    const line = lines[index] ?? 1;
    if (cell.kind === 'markdown') blocks.push(...markdownToBlocks(numberLines(cell.source, line), { mdx: false }));
    else if (cell.kind === 'code') blocks.push({ kind: 'code', code: dedentBlock(cell.source.split(/\r?\n/)), language, line });
  });
  const metadata = isRecord(notebook.metadata) ? notebook.metadata : {};
  const title = typeof metadata.title === 'string' ? metadata.title.trim() : '';
  return blocksToSnippets(blocks, { path: doc.path, pageTitle: title || firstTitle(blocks) || titleFromPath(doc.path) });
}

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function notebookCells(notebook: Json): Cell[] {
  const raw: unknown[] = Array.isArray(notebook.cells)
    ? notebook.cells
    : Array.isArray(notebook.worksheets)
      ? notebook.worksheets.flatMap((w) => (isRecord(w) && Array.isArray(w.cells) ? w.cells : []))
      : [];
  return raw.filter(isRecord).map((c) => ({
    kind: c.cell_type === 'markdown' ? 'markdown' : c.cell_type === 'code' ? 'code' : 'other',
    // nbformat 3 kept a code cell's source in `input`.
    source: joinSource(c.source ?? c.input),
  }));
}

/** Cell sources are a string or a list of lines that keep their own line endings. */
function joinSource(source: unknown): string {
  if (typeof source === 'string') return source;
  if (Array.isArray(source)) return source.filter((s): s is string => typeof s === 'string').join('');
  return '';
}

function notebookLanguage(notebook: Json): string {
  const metadata = isRecord(notebook.metadata) ? notebook.metadata : {};
  const kernel = isRecord(metadata.kernelspec) ? metadata.kernelspec.language : undefined;
  const info = isRecord(metadata.language_info) ? metadata.language_info.name : undefined;
  const legacy = metadata.language;
  for (const candidate of [kernel, info, legacy]) if (typeof candidate === 'string' && normaliseLanguage(candidate) !== '') return normaliseLanguage(candidate);
  return 'python';
}

/**
 * The file line where each cell's source begins, so links land on the cell. Every cell has
 * one `"source"` (or `"input"`) key and nothing else in a notebook uses that key; in a
 * pretty-printed notebook each source line is then one file line. When the keys and cells
 * do not pair up, the lines are unknown and every cell points at line 1.
 */
function sourceLines(text: string, cellCount: number): number[] {
  const key = /"(?:source|input)"\s*:\s*(\[\s*)?/g;
  const out: number[] = [];
  let line = 1;
  let scanned = 0;
  for (let m = key.exec(text); m; m = key.exec(text)) {
    const at = m.index + m[0].length;
    for (let j = text.indexOf('\n', scanned); j >= 0 && j < at; j = text.indexOf('\n', j + 1)) line++;
    scanned = at;
    out.push(line);
  }
  return out.length === cellCount ? out : [];
}
