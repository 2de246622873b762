/**
 * The snapshot of pages held in memory: every page a document, in the order given, as the
 * build of any other source sees them (tests seed libraries through it, so they go through
 * the same build as a user's add).
 */
import { memoryFiles } from '../pipeline/commit-files';
import type { SourceSnapshot } from './source';
import { sha256 } from '../../util/hash';

export function memorySnapshot(pages: Record<string, string>, options: { ref?: string; fileUrl: (path: string, line: number) => string }): SourceSnapshot {
  const documents = Object.entries(pages).map(([path, text]) => ({ path, hash: sha256(text).slice(0, 40) }));
  return {
    revision: sha256(documents.map((d) => `${d.path}\u0000${d.hash}`).join('\n')).slice(0, 40),
    ref: options.ref ?? 'main',
    tags: [],
    documents,
    files: memoryFiles(pages),
    fileUrl: options.fileUrl,
    meta: () => ({ branch: options.ref ?? 'main' }),
    emptyMessage: 'The pages hold no documentation to index.',
    close: () => undefined,
  };
}
