/**
 * `shelfmark export <libraryId> [--version v] [-o file]` and `shelfmark import <file>
 * [--force]`: library bundles (docs/BUNDLES.md). An export is checked as it downloads
 * (header, checksum, trailer); with -o it is written to a temporary file renamed into
 * place only when complete, so a failed export never leaves a file that looks whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COMMON_USAGE, output, parseCommand, type Command } from '../command';
import { CliError, EXIT } from '../errors';
import { formatBytes, progressBar } from '../progress';
import { verifyBundle } from '../../catalog/bundles/verify';
import { BundleError } from '../../catalog/bundles/format';

const EXPORT_USAGE = `Usage: shelfmark export <libraryId> [--version <version or tag>] [-o <file>] > file

Downloads a library bundle: every built version of the library (or one, with --version),
its snippets exactly as indexed and their checksum, as one gzip file for
\`shelfmark import\` on another server. Writes to stdout (refused on a terminal) or to
-o <file>. The bundle is verified as it arrives; exit 1 when it arrived incomplete.

${COMMON_USAGE}`;

const IMPORT_USAGE = `Usage: shelfmark import <file> [--force]

Uploads a bundle made by \`shelfmark export\` (admins). The server verifies its format
version and checksum and publishes all its versions in one step; importing the same
bundle again changes nothing. A version the server serves from a newer build is kept
(exit 6) unless --force.

${COMMON_USAGE}`;

export const exportCommand: Command = {
  name: 'export',
  summary: 'download a library bundle',
  usage: EXPORT_USAGE,
  async run(argv) {
    const p = parseCommand(exportCommand, argv, { version: { type: 'string' }, output: { type: 'string', short: 'o' } }, { min: 1, max: 1 });
    const id = p.positionals[0].replace(/\/+$/, '');
    if (!/^\/[^/]+\/[^/@]+$/.test(id))
      throw new CliError(`export: the library id must look like /owner/repo (use --version for a version), got "${p.positionals[0]}".`, EXIT.usage);
    const target = p.values.output as string | undefined;
    if (!target && process.stdout.isTTY)
      throw new CliError('export: the bundle is binary; redirect stdout to a file (`> lib.shelfmark.gz`) or pass -o <file>.', EXIT.usage);
    const started = Date.now();
    const res = await p.api.request('GET', `/v2/libraries${id}/export`, { query: { version: p.values.version as string | undefined } });
    if (!res.body) throw new CliError('The server sent no bundle.', EXIT.failed);
    const bar = progressBar({ json: p.json, format: ' {bar} {received} of {library}', total: 1 });
    const temp = target ? path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.part`) : undefined;
    const sink = temp ? fs.createWriteStream(temp) : process.stdout;
    const check = new PassThrough();
    const verified = verifyBundle(check);
    let bytes = 0;
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      check.write(chunk);
      bar.update(0, { received: formatBytes(bytes), library: id });
    });
    body.on('end', () => check.end());
    body.on('error', (error) => check.destroy(error));
    try {
      await Promise.all([pipeline(body, sink, { end: sink !== process.stdout }), verified]);
      const { header, snippets } = await verified;
      if (temp && target) fs.renameSync(temp, target);
      bar.stop();
      const summary = {
        libraryId: header.library.id,
        versions: header.versions.map((v) => v.version),
        snippets,
        bytes,
        seconds: (Date.now() - started) / 1000,
        file: target ?? null,
      };
      if (p.json && target) output(p, summary, () => '');
      process.stderr.write(
        `Exported ${summary.libraryId} (${summary.versions.join(', ')}): ${snippets} snippets, ${formatBytes(bytes)} in ${summary.seconds.toFixed(1)} s${target ? ` to ${target}` : ''}.\n`,
      );
    } catch (error) {
      bar.stop();
      if (temp) fs.rmSync(temp, { force: true });
      if (error instanceof BundleError)
        throw new CliError(`The export arrived incomplete or damaged (${error.message}); nothing was kept. Try again.`, EXIT.failed);
      throw error;
    }
  },
};

export const importCommand: Command = {
  name: 'import',
  summary: 'upload a library bundle (admins)',
  usage: IMPORT_USAGE,
  async run(argv) {
    const p = parseCommand(importCommand, argv, { force: { type: 'boolean' } }, { min: 1, max: 1 });
    const file = p.positionals[0];
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch (error) {
      throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, EXIT.usage);
    }
    const started = Date.now();
    const bar = progressBar({ json: p.json, format: ' {bar} {percentage}% {sent} of {size} sent', total: size });
    async function* body(): AsyncGenerator<Uint8Array> {
      let sent = 0;
      for await (const chunk of fs.createReadStream(file)) {
        sent += (chunk as Buffer).length;
        bar.update(sent, { sent: formatBytes(sent), size: formatBytes(size) });
        yield chunk as Buffer;
      }
    }
    try {
      const result = await p.api.json<{ libraryName: string; status: string; message: string; versions: unknown[] }>('POST', '/v2/libraries/import', {
        body: body(),
        query: { force: p.values.force ? 'true' : undefined },
        headers: { 'Content-Type': 'application/gzip', 'Content-Length': String(size) },
      });
      bar.stop();
      output(p, { ...result, bytes: size, seconds: (Date.now() - started) / 1000 }, () => result.message);
    } finally {
      bar.stop();
    }
  },
};
