/**
 * Kept trees (kept-tree.ts) read into memory for the code tools: each as three
 * SharedArrayBuffers (content, file offsets, lengths) that the code threads read without a
 * copy, held per process up to CODE_CACHE_MB, least recently used first out. A kept tree
 * never changes once written (a new commit is a new folder), so an entry is never stale;
 * one that was removed is dropped.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KeptTreeIndex } from '../indexing/code-trees/kept-tree';
import type { SharedTree } from './code-thread';

export interface LoadedTree {
  dir: string;
  index: KeptTreeIndex;
  shared: SharedTree;
  /** Path → file index. */
  byPath: Map<string, number>;
  bytes: number;
}

export class TreeCache {
  private entries = new Map<string, LoadedTree>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The tree in `dir`, or undefined when none is kept there. */
  load(dir: string): LoadedTree | undefined {
    const hit = this.entries.get(dir);
    // A tree removed on disk (its commit no longer served, or its library deleted) is not
    // served from memory either: one stat, so every instance answers alike.
    if (hit && !fs.existsSync(path.join(dir, 'tree.json'))) {
      this.entries.delete(dir);
      this.bytes -= hit.bytes;
      return undefined;
    }
    if (hit) {
      this.entries.delete(dir);
      this.entries.set(dir, hit);
      return hit;
    }
    let index: KeptTreeIndex;
    try {
      index = JSON.parse(fs.readFileSync(path.join(dir, 'tree.json'), 'utf8')) as KeptTreeIndex;
    } catch {
      return undefined;
    }
    const content = new SharedArrayBuffer(index.totalBytes);
    const fd = fs.openSync(path.join(dir, 'content.bin'), 'r');
    try {
      const target = new Uint8Array(content);
      let read = 0;
      while (read < index.totalBytes) {
        const n = fs.readSync(fd, target, read, Math.min(16 * 1024 * 1024, index.totalBytes - read), read);
        if (n === 0) throw new Error(`${dir}/content.bin is shorter than its index says`);
        read += n;
      }
    } finally {
      fs.closeSync(fd);
    }
    const offsets = new SharedArrayBuffer(index.files.length * 8);
    const lengths = new SharedArrayBuffer(index.files.length * 8);
    const o = new Float64Array(offsets);
    const l = new Float64Array(lengths);
    index.files.forEach((f, i) => {
      o[i] = f.offset;
      l[i] = f.length;
    });
    const tree: LoadedTree = {
      dir,
      index,
      shared: { content, offsets, lengths },
      byPath: new Map(index.files.map((f, i) => [f.path, i])),
      bytes: index.totalBytes + index.files.length * 120,
    };
    this.entries.set(dir, tree);
    this.bytes += tree.bytes;
    while (this.bytes > this.maxBytes && this.entries.size > 1) {
      const [oldest, entry] = this.entries.entries().next().value as [string, LoadedTree];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return tree;
  }

  /** The text of one file of a loaded tree. */
  static text(tree: LoadedTree, file: number): string {
    const f = tree.index.files[file];
    return Buffer.from(tree.shared.content, f.offset, f.length).toString('utf8');
  }
}
