/**
 * Archives for upload tests, byte by byte, so each unsafe shape can be made on purpose: zip
 * entries with any name, Unix mode (symlinks, devices) and a stored or deflated body; tar.gz
 * through tar-stream's packer (links, devices, any name).
 */
import zlib from 'node:zlib';
import tar from 'tar-stream';

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Unix mode (e.g. 0o100644 file, 0o120777 symlink, 0o020644 char device). */
  mode?: number;
  /** Deflate the body (default true). */
  deflate?: boolean;
}

/** A zip file (local headers, central directory, end record) made from the entries. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const raw = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
    const deflate = e.deflate !== false && !e.name.endsWith('/');
    const body = deflate ? zlib.deflateRawSync(raw) : raw;
    const crc = zlib.crc32(raw);
    const method = deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    const mode = e.mode ?? (e.name.endsWith('/') ? 0o040755 : 0o100644);
    central.writeUInt32LE(((mode & 0xffff) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

export interface TarEntry {
  name: string;
  data?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'block-device' | 'fifo';
  linkname?: string;
}

/** A gzip-compressed tar of the entries. */
export async function makeTgz(entries: TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const gzip = zlib.createGzip();
  const done = new Promise<Buffer>((resolve, reject) => {
    gzip.on('data', (c: Buffer) => chunks.push(c));
    gzip.on('end', () => resolve(Buffer.concat(chunks)));
    gzip.on('error', reject);
  });
  pack.pipe(gzip);
  for (const e of entries) {
    const type = e.type ?? 'file';
    const data = type === 'file' ? (Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '')) : undefined;
    await new Promise<void>((resolve, reject) => {
      const header = { name: e.name, type, linkname: e.linkname, size: data?.length ?? 0, mode: type === 'directory' ? 0o755 : 0o644 };
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (data) pack.entry(header, data, done);
      else pack.entry(header, done);
    });
  }
  pack.finalize();
  return done;
}
