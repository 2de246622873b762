/**
 * A code-tools thread (code-workers.ts): scans kept trees and parses their files, so a
 * search over thousands of files never holds the server's event loop, and a pattern that
 * backtracks without end can be stopped by terminating the thread. Trees arrive as
 * SharedArrayBuffers: nothing is copied.
 */
import { parentPort } from 'node:worker_threads';
import { scanTree, type ScanRequest, type ScanResult } from './scan';
import { outlineOf, type CodeSymbol } from './symbols';

export interface SharedTree {
  content: SharedArrayBuffer;
  offsets: SharedArrayBuffer;
  lengths: SharedArrayBuffer;
}

export type ThreadRequest =
  | { id: number; op: 'scan'; tree: SharedTree; request: ScanRequest }
  | { id: number; op: 'outline'; tree: SharedTree; files: Array<{ file: number; language: string }>; deadline: number };

export type ThreadReply =
  | { id: number; scan: ScanResult }
  | { id: number; outlines: Array<{ file: number; symbols: CodeSymbol[] }>; stoppedBy: 'deadline' | null }
  | { id: number; error: string; syntax?: boolean };

function view(tree: SharedTree) {
  return { content: new Uint8Array(tree.content), offsets: new Float64Array(tree.offsets), lengths: new Float64Array(tree.lengths) };
}

async function handle(message: ThreadRequest): Promise<ThreadReply> {
  const tree = view(message.tree);
  if (message.op === 'scan') return { id: message.id, scan: scanTree(tree, message.request) };
  const outlines: Array<{ file: number; symbols: CodeSymbol[] }> = [];
  const buf = Buffer.from(message.tree.content);
  for (const { file, language } of message.files) {
    if (Date.now() > message.deadline) return { id: message.id, outlines, stoppedBy: 'deadline' };
    const text = buf.toString('utf8', tree.offsets[file], tree.offsets[file] + tree.lengths[file]);
    outlines.push({ file, symbols: await outlineOf(text, language) });
  }
  return { id: message.id, outlines, stoppedBy: null };
}

parentPort?.on('message', (message: ThreadRequest) => {
  handle(message).then(
    (reply) => parentPort?.postMessage(reply),
    (error: unknown) =>
      parentPort?.postMessage({ id: message.id, error: (error as Error).message, syntax: error instanceof SyntaxError } satisfies ThreadReply),
  );
});

// Started: the first task's deadline does not count the thread's start (code-workers.ts).
parentPort?.postMessage('ready');
