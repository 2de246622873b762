/**
 * The files a first visit downloads: index.html, what it links (stylesheet, icon, module
 * preloads, the entry module), the static imports of those modules, and the sign-in page
 * module the router loads first (with its own imports).
 */
import path from 'node:path';
import { loadStaticFiles } from '../../src/dashboard/static';

export function firstLoadFiles(): { files: string[]; bytes: number } {
  const all = loadStaticFiles();
  const seen = new Set<string>();
  const visit = (rel: string) => {
    if (seen.has(rel) || !all.has(rel)) return;
    seen.add(rel);
    if (!rel.endsWith('.js')) return;
    const text = all.get(rel)?.body.toString('utf8') ?? '';
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*'(\.[^']+)'|(?:^|\n)\s*import\s*'(\.[^']+)'/g)) {
      visit(path.posix.join(path.posix.dirname(rel), m[1] ?? m[2]));
    }
  };
  visit('/index.html');
  const html = all.get('/index.html')?.body.toString('utf8') ?? '';
  for (const m of html.matchAll(/\s(?:href|src)="([^"#:]+)"/g)) visit(`/${m[1]}`);
  visit('/js/pages/login.js');
  const files = [...seen];
  return { files, bytes: files.reduce((sum, f) => sum + (all.get(f)?.body.length ?? 0), 0) };
}
