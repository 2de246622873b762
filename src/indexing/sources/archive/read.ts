/**
 * Reads an uploaded zip or tar.gz into memory, refusing anything unsafe before a byte of it
 * is used: paths that leave the archive (`..`, zip-slip) or are absolute, symlinks and hard
 * links, device files and FIFOs, and decompression bombs — too many entries, too many bytes
 * in all, or a compression ratio no docs folder has. The whole archive is checked first and
 * the files returned only when every entry passed, so a refusal leaves nothing written.
 * Zip through `yauzl` (central directory read first; each entry's inflated size checked
 * against its header), tar.gz through `tar-stream` over Node's gunzip (the sizes counted as
 * they inflate, so a bomb is stopped within a chunk of the limit).
 */
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import tar from 'tar-stream';

export type ArchiveFormat = 'zip' | 'tgz';

export type ArchiveRefusal = 'format' | 'unsafe_path' | 'link' | 'special_file' | 'too_many_entries' | 'too_large' | 'ratio';

/** An archive refused; `message` names the entry at fault. */
export class ArchiveError extends Error {
  constructor(
    readonly reason: ArchiveRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface ArchiveLimits {
  /** Entries of any kind (directories included). */
  maxEntries: number;
  /** Bytes of all files once decompressed. */
  maxTotalBytes: number;
  /** Decompressed / compressed, per zip entry and for the whole archive (zip and tar.gz). */
  maxRatio: number;
  /** Files larger than this are listed (their size counts) but not kept in memory. */
  maxFileBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 20_000,
  maxTotalBytes: 300 * 1024 * 1024,
  maxRatio: 100,
  maxFileBytes: 2 * 1024 * 1024,
};

export interface ArchiveFile {
  path: string;
  size: number;
  /** Undefined when the file is larger than `maxFileBytes`. */
  data?: Buffer;
}

/** Which format a file's first bytes say it is (zip local header, gzip magic), or undefined. */
export function sniffArchive(buf: Buffer): ArchiveFormat | undefined {
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return 'tgz';
  return undefined;
}

/**
 * The archive-relative path of an entry, or an ArchiveError: forward slashes, no leading
 * `./`, never absolute (`/x`, `C:\x`, `\\host`), never with a `..` segment.
 */
export function safeEntryPath(raw: string): string {
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    throw new ArchiveError('unsafe_path', `The archive entry "${raw}" has an absolute path; entries must be relative to the archive's root.`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..'))
    throw new ArchiveError('unsafe_path', `The archive entry "${raw}" leaves the archive's folder (".."); entries must stay inside it.`);
  if (parts.some((p) => p.includes('\0')))
    throw new ArchiveError('unsafe_path', `The archive entry "${raw.replace(/\0/g, '\\0')}" has a NUL character in its name.`);
  return parts.join('/');
}

/** Every file of an archive, or an ArchiveError naming the first unsafe entry. */
export async function readArchive(buf: Buffer, format: ArchiveFormat, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ArchiveFile[]> {
  return format === 'zip' ? readZip(buf, limits) : readTgz(buf, limits);
}

class Budget {
  entries = 0;
  total = 0;
  constructor(private readonly limits: ArchiveLimits) {}
  entry(): void {
    if (++this.entries > this.limits.maxEntries) throw new ArchiveError('too_many_entries', `The archive has more than ${this.limits.maxEntries} entries.`);
  }
  bytes(n: number): void {
    this.total += n;
    if (this.total > this.limits.maxTotalBytes)
      throw new ArchiveError(
        'too_large',
        `The archive's files add up to more than ${Math.round(this.limits.maxTotalBytes / 1024 / 1024)} MB once decompressed.`,
      );
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

async function readZip(buf: Buffer, limits: ArchiveLimits): Promise<ArchiveFile[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (err, z) =>
      err || !z ? reject(formatError(err)) : resolve(z),
    ),
  );
  const budget = new Budget(limits);
  // The whole archive's ratio, as for tar.gz: many entries each under the per-entry check
  // (317 KB of 1 MiB entries once inflated to 280 MB) add up. Declared sizes are checked
  // before an entry is inflated, and what inflates may not exceed them.
  const maxInflated = Math.max(buf.length * limits.maxRatio, 1024 * 1024);
  const files: ArchiveFile[] = [];
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => {
          zip.off('end', onEnd);
          zip.off('error', onError);
          resolve(e);
        };
        const onEnd = () => {
          zip.off('entry', onEntry);
          zip.off('error', onError);
          resolve(null);
        };
        const onError = (err: Error) => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          reject(formatError(err));
        };
        zip.once('entry', onEntry);
        zip.once('end', onEnd);
        zip.once('error', onError);
        zip.readEntry();
      });
      if (!entry) break;
      budget.entry();
      const isDir = entry.fileName.endsWith('/');
      const path = safeEntryPath(entry.fileName);
      // Unix mode bits live in the high half of the external attributes (made on Unix);
      // archives made elsewhere carry none (0): a plain file or folder.
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) throw new ArchiveError('link', `The archive entry "${path}" is a symbolic link; links are refused.`);
      if (mode !== 0 && mode !== S_IFREG && mode !== S_IFDIR)
        throw new ArchiveError('special_file', `The archive entry "${path}" is a device file, FIFO or socket; only files and folders are accepted.`);
      if (isDir || mode === S_IFDIR || path === '') continue;
      const declared = entry.uncompressedSize;
      if (entry.compressedSize > 0 && declared / entry.compressedSize > limits.maxRatio && declared > 1024 * 1024) {
        throw new ArchiveError(
          'ratio',
          `The archive entry "${path}" expands ${Math.round(declared / entry.compressedSize)} times (at most ${limits.maxRatio}); refused as a decompression bomb.`,
        );
      }
      budget.bytes(declared);
      if (budget.total > maxInflated) {
        throw new ArchiveError('ratio', `The archive expands more than ${limits.maxRatio} times its size (at "${path}"); refused as a decompression bomb.`);
      }
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err || !s ? reject(formatError(err)) : resolve(s))),
      );
      const keep = declared <= limits.maxFileBytes;
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of stream) {
          size += (chunk as Buffer).length;
          // yauzl checks the header's size as it inflates too; this stops a lie as it grows.
          if (size > declared) throw new ArchiveError('ratio', `The archive entry "${path}" is larger than its header says; refused.`);
          if (keep) chunks.push(chunk as Buffer);
        }
      } catch (error) {
        throw formatError(error as Error);
      }
      files.push({ path, size, data: keep ? Buffer.concat(chunks) : undefined });
    }
  } finally {
    zip.close();
  }
  return files;
}

async function readTgz(buf: Buffer, limits: ArchiveLimits): Promise<ArchiveFile[]> {
  const budget = new Budget(limits);
  const maxInflated = Math.min(limits.maxTotalBytes * 2, Math.max(buf.length * limits.maxRatio, 1024 * 1024));
  let inflated = 0;
  const gunzip = zlib.createGunzip();
  gunzip.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > maxInflated) {
      gunzip.destroy(
        new ArchiveError(
          buf.length * limits.maxRatio < limits.maxTotalBytes * 2 ? 'ratio' : 'too_large',
          `The archive expands more than ${limits.maxRatio} times its size (or past ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB); refused as a decompression bomb.`,
        ),
      );
    }
  });
  const extract = tar.extract();
  const files: ArchiveFile[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const fail = (err: unknown) => {
      extract.destroy();
      gunzip.destroy();
      reject(err instanceof ArchiveError ? err : formatError(err as Error));
    };
    gunzip.on('error', fail);
    extract.on('error', fail);
    extract.on('finish', resolve);
    extract.on('entry', (header, stream, next) => {
      try {
        budget.entry();
        const path = safeEntryPath(header.name);
        switch (header.type) {
          case 'symlink':
          case 'link':
            throw new ArchiveError('link', `The archive entry "${path}" is a ${header.type === 'link' ? 'hard' : 'symbolic'} link; links are refused.`);
          case 'character-device':
          case 'block-device':
          case 'fifo':
            throw new ArchiveError('special_file', `The archive entry "${path}" is a ${header.type}; only files and folders are accepted.`);
          case 'file':
          case 'contiguous-file':
            break;
          default:
            // Directories and metadata entries (pax headers are read by tar-stream itself).
            stream.resume();
            stream.on('end', next);
            return;
        }
        const keep = (header.size ?? 0) <= limits.maxFileBytes;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (data: unknown) => {
          const chunk = data as Buffer;
          size += chunk.length;
          try {
            budget.bytes(chunk.length);
          } catch (error) {
            fail(error);
            return;
          }
          if (keep) chunks.push(chunk);
        });
        stream.on('end', () => {
          if (path !== '') files.push({ path, size, data: keep ? Buffer.concat(chunks) : undefined });
          next();
        });
      } catch (error) {
        fail(error);
      }
    });
  });
  Readable.from([buf]).pipe(gunzip).pipe(extract);
  await done;
  return files;
}

function formatError(err: Error | null | undefined): ArchiveError {
  if (err instanceof ArchiveError) return err;
  const detail = err?.message ?? 'unreadable';
  // yauzl checks entry names itself (decodeStrings): say it as we do.
  const named = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(detail);
  if (named) {
    try {
      safeEntryPath(named[2]);
    } catch (error) {
      if (error instanceof ArchiveError) return error;
    }
    return new ArchiveError('unsafe_path', `The archive entry "${named[2]}" has a name that is not a safe relative path.`);
  }
  if (/too many|exceeds|larger|expected/i.test(detail) && /size|bytes/i.test(detail))
    return new ArchiveError('ratio', `The archive's sizes do not match its contents (${detail}); refused.`);
  return new ArchiveError('format', `The file is not a readable zip or tar.gz archive (${detail}).`);
}
