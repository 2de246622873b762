/**
 * `npx tsx scripts/eval/merged-figures.ts add <docs folder>` then
 * `npx tsx scripts/eval/merged-figures.ts merge <website id> --library /koajs/koa`
 *
 * The figures of a merged library (catalog/merged-sources.ts) built from a repository and its
 * website: serves the folder's Markdown rendered to HTML (marked) on a loopback port — each
 * page at its own path, so the website's snippets carry the repository's paths and path-based
 * qrels judge both copies alike — and adds it as a website (WEB_ALLOWED_HOSTS must allow
 * 127.0.0.1), so it can be evaluated alone; `merge` merges it into `--library` (already loaded:
 * `npm run load -- --only`) and prints the served snippets of the merged latest version before
 * and after cross-source de-duplication (retrieval/merged-dedupe.ts over all of them, as a
 * reader would meet them).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { marked } from 'marked';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, portsOf } from '../../src/services';
import type { Ports } from '../../src/ports';
import { addWebsite } from '../../src/catalog/add-web';
import { addLibrarySource, sourceScopes } from '../../src/catalog/merged-sources';
import { crossSourceDuplicates } from '../../src/retrieval/merged-dedupe';

/** Every Markdown file under `root`, as URL paths. */
function markdownPages(root: string, dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('.') || e.name === 'node_modules' ? [] : markdownPages(root, rel);
    return /\.md$/i.test(e.name) ? [`/${rel}`] : [];
  });
}

/** The folder's Markdown as a website: each page rendered to HTML at its own path, an index linking them all. */
async function serveAsWebsite(root: string): Promise<{ origin: string; pages: number; close(): Promise<void> }> {
  const pages = markdownPages(root);
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>Docs</title></head><body><main><h1>Docs</h1><ul>${pages.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></main></body></html>`,
      );
      return;
    }
    if (!pages.includes(url)) {
      res.writeHead(404).end();
      return;
    }
    const markdown = fs.readFileSync(path.join(root, url), 'utf8');
    const title = /^#\s+(.+)$/m.exec(markdown)?.[1] ?? url;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Docs</a></nav><main>${marked.parse(markdown, { async: false })}</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, pages: pages.length, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The served snippets of the merged library's latest version, from every source, before and after de-duplication. */
async function countMerged(
  services: Pick<Ports, 'libraries' | 'snippets'>,
  libraryId: string,
): Promise<{ perSource: Record<string, { served: number; dropped: number }>; before: number; after: number }> {
  const lib = await services.libraries.get(libraryId, { fresh: true });
  const latest = lib?.versions.find((v) => v.version === 'latest');
  if (!lib || !latest) throw new Error(`${libraryId} has no latest version`);
  const scopes = [
    { libraryId: lib._id, version: 'latest', generation: latest.generation, baseGeneration: latest.baseGeneration },
    ...(await sourceScopes(services, lib, 'latest')),
  ];
  const perSource: Record<string, { served: number; dropped: number }> = {};
  const docs = [];
  for (const s of scopes) {
    const read = await services.snippets.read({ libraryId: s.libraryId, version: s.version, generation: s.generation, baseGeneration: s.baseGeneration });
    perSource[s.libraryId] = { served: read.length, dropped: 0 };
    docs.push(...read);
  }
  const dropped = crossSourceDuplicates(docs);
  for (const d of docs) if (dropped.has(d.id)) perSource[d.libraryId].dropped += 1;
  return { perSource, before: docs.length, after: docs.length - dropped.size };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { library: { type: 'string' } } });
  const [mode, target] = positionals;
  if (!target || (mode === 'add' && !fs.existsSync(target)) || (mode === 'merge' && !values.library) || (mode !== 'add' && mode !== 'merge')) {
    console.error('usage: npx tsx scripts/eval/merged-figures.ts add <docs folder> | merge <website id> --library /owner/repo');
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const composition = await createServices(config, createLogger(config.logLevel, process.stderr));
  const { lifecycle } = composition;
  const services = portsOf(composition);
  try {
    if (mode === 'add') {
      lifecycle.startWorker();
      const site = await serveAsWebsite(path.resolve(target));
      try {
        console.error(`serving ${site.pages} pages of ${target} as HTML at ${site.origin}`);
        const added = await addWebsite(
          services,
          { kind: 'service' },
          { url: `${site.origin}/`, scope: 'hostname', maxPages: 500, maxDepth: 5, include: [], exclude: [] },
          { waitMs: 30 * 60 * 1000 },
        );
        const website = await services.libraries.get(added.libraryName, { fresh: true });
        console.log(`website ${added.libraryName}: ${website?.versions.find((v) => v.version === 'latest')?.totalSnippets ?? 0} snippets`);
      } finally {
        await site.close();
        await lifecycle.worker?.stop();
      }
      return;
    }
    const library = values.library as string;
    await addLibrarySource(services, { kind: 'service' }, library, { source: target });
    const counts = await countMerged(services, library);
    for (const [id, n] of Object.entries(counts.perSource))
      console.log(`  ${id}: ${n.served} snippets, ${n.dropped} of them the poorer copy of another source's`);
    console.log(
      `merged ${library} latest: ${counts.before} snippets before cross-source de-duplication, ${counts.after} after (${counts.before - counts.after} poorer copies not served)`,
    );
  } finally {
    await lifecycle.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
