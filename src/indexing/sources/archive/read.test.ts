import test from 'ava';
import { makeTgz, makeZip } from '../../../../test/archive-builder';
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, readArchive, safeEntryPath, sniffArchive } from './read';

const refused = async (t: import('ava').ExecutionContext, promise: Promise<unknown>, reason: ArchiveError['reason'], message: RegExp) => {
  const error = await t.throwsAsync(promise, { instanceOf: ArchiveError });
  t.is((error as ArchiveError).reason, reason);
  t.regex(error?.message ?? '', message);
};

test('zip and tar.gz of a docs folder read back file by file; folders are not files', async (t) => {
  const zip = makeZip([{ name: 'site/' }, { name: 'site/index.md', data: '# Hello' }, { name: 'site/guide/a.md', data: 'A', deflate: false }]);
  t.is(sniffArchive(zip), 'zip');
  t.deepEqual(
    (await readArchive(zip, 'zip')).map((f) => [f.path, f.data?.toString()]),
    [
      ['site/index.md', '# Hello'],
      ['site/guide/a.md', 'A'],
    ],
  );
  const tgz = await makeTgz([
    { name: 'docs', type: 'directory' },
    { name: 'docs/index.md', data: '# Hi' },
    { name: './docs/b.md', data: 'B' },
  ]);
  t.is(sniffArchive(tgz), 'tgz');
  t.deepEqual(
    (await readArchive(tgz, 'tgz')).map((f) => [f.path, f.data?.toString()]),
    [
      ['docs/index.md', '# Hi'],
      ['docs/b.md', 'B'],
    ],
  );
  t.is(sniffArchive(Buffer.from('plain text')), undefined);
});

test('paths that leave the archive or are absolute are refused (zip-slip)', async (t) => {
  t.throws(() => safeEntryPath('../evil.md'), { instanceOf: ArchiveError });
  t.throws(() => safeEntryPath('docs/../../evil.md'), { instanceOf: ArchiveError });
  t.throws(() => safeEntryPath('..\\evil.md'), { instanceOf: ArchiveError });
  t.throws(() => safeEntryPath('/etc/passwd'), { instanceOf: ArchiveError });
  t.throws(() => safeEntryPath('C:\\Windows\\x.md'), { instanceOf: ArchiveError });
  t.is(safeEntryPath('./docs//a.md'), 'docs/a.md');
  await refused(
    t,
    readArchive(
      makeZip([
        { name: 'ok.md', data: 'x' },
        { name: '../../evil.md', data: 'x' },
      ]),
      'zip',
    ),
    'unsafe_path',
    /"\.\.\/\.\.\/evil\.md" leaves/,
  );
  await refused(t, readArchive(await makeTgz([{ name: '/abs.md', data: 'x' }]), 'tgz'), 'unsafe_path', /absolute path/);
});

test('symlinks, hard links and device files are refused', async (t) => {
  await refused(t, readArchive(makeZip([{ name: 'link.md', data: '/etc/passwd', mode: 0o120777 }]), 'zip'), 'link', /"link\.md" is a symbolic link/);
  await refused(t, readArchive(makeZip([{ name: 'dev', data: '', mode: 0o020644 }]), 'zip'), 'special_file', /device file/);
  await refused(t, readArchive(await makeTgz([{ name: 'l.md', type: 'symlink', linkname: '/etc/passwd' }]), 'tgz'), 'link', /symbolic link/);
  await refused(
    t,
    readArchive(
      await makeTgz([
        { name: 'a.md', data: 'x' },
        { name: 'h.md', type: 'link', linkname: 'a.md' },
      ]),
      'tgz',
    ),
    'link',
    /hard link/,
  );
  await refused(t, readArchive(await makeTgz([{ name: 'tty', type: 'character-device' }]), 'tgz'), 'special_file', /character-device/);
  await refused(t, readArchive(await makeTgz([{ name: 'pipe', type: 'fifo' }]), 'tgz'), 'special_file', /fifo/);
});

test('decompression bombs: ratio, total size and entry count', async (t) => {
  const zeros = Buffer.alloc(20 * 1024 * 1024);
  await refused(t, readArchive(makeZip([{ name: 'bomb.md', data: zeros }]), 'zip'), 'ratio', /expands \d+ times/);
  await refused(t, readArchive(await makeTgz([{ name: 'bomb.md', data: zeros }]), 'tgz'), 'ratio', /decompression bomb/);
  const many = makeZip(Array.from({ length: 30 }, (_, i) => ({ name: `p${i}.md`, data: `page ${i}` })));
  await refused(t, readArchive(many, 'zip', { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 20 }), 'too_many_entries', /more than 20 entries/);
  const big = makeZip(Array.from({ length: 4 }, (_, i) => ({ name: `p${i}.md`, data: Buffer.alloc(400 * 1024, 65 + i), deflate: false })));
  await refused(t, readArchive(big, 'zip', { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: 1024 * 1024 }), 'too_large', /add up to more than 1 MB/);
  const bigTgz = await makeTgz(Array.from({ length: 4 }, (_, i) => ({ name: `p${i}.md`, data: Buffer.alloc(400 * 1024, 65 + i) })));
  await refused(t, readArchive(bigTgz, 'tgz', { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: 1024 * 1024, maxRatio: 10_000 }), 'too_large', /more than 1 MB/);
});

test('a zip whose entry holds more than its header says is refused; garbage is not an archive', async (t) => {
  const zip = makeZip([{ name: 'a.md', data: 'hello world, hello world' }]);
  // Shrink the declared size in both headers: the body inflates past it.
  zip.writeUInt32LE(5, 22);
  const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  zip.writeUInt32LE(5, central + 24);
  await t.throwsAsync(readArchive(zip, 'zip'), { instanceOf: ArchiveError });
  await refused(t, readArchive(Buffer.from('PK\x03\x04 not really'), 'zip'), 'format', /not a readable zip/);
  await refused(t, readArchive(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 'tgz'), 'format', /not a readable/);
});

test('a zip bomb of many entries of at most 1 MiB each is refused by the whole archive ratio, before they are inflated', async (t) => {
  // 40 entries of 1 MiB of zeros: each under the per-entry check's 1 MiB floor, 40 MiB from ~40 KB.
  const bomb = makeZip(Array.from({ length: 40 }, (_, i) => ({ name: `p${i}.md`, data: Buffer.alloc(1024 * 1024) })));
  t.true(bomb.length < 100 * 1024);
  await refused(t, readArchive(bomb, 'zip'), 'ratio', /expands more than 100 times/);
  // A docs folder of ordinary pages compresses a few times: still read.
  const docs = makeZip(Array.from({ length: 40 }, (_, i) => ({ name: `p${i}.md`, data: `# Page ${i}\n\n${'Some words about page ' + i + '. '.repeat(50)}` })));
  t.is((await readArchive(docs, 'zip')).length, 40);
});
