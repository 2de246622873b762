/**
 * A library's title and description when its config gives none: the project's own summary,
 * never text about working on the repository. In order:
 * 1. the root README's lead (discover/readme.ts), following a README that only names another
 *    README (a symlink stored as text, zod's `README.md` → `packages/zod/README.md`);
 * 2. the docs' home page (the shallowest `index.md`/`index.mdx`): its front matter's
 *    `description`, `tagline` or `hero.tagline`, or the subtitle of a title written
 *    "Name - Tagline" (vuejs/docs: "Vue.js - The Progressive JavaScript Framework");
 * 3. nothing: an empty description is better than a contributing guide.
 */
import yaml from 'js-yaml';
import { describeFromReadme, README_DESCRIPTION_MAX } from './readme';

export interface ProjectSummary {
  title?: string;
  description?: string;
}

interface SummarySources {
  /** Repository-relative paths of the documents selected for the build. */
  paths: readonly string[];
  /** A file's text at the built commit (undefined when missing or unreadable). */
  read(path: string): Promise<string | undefined>;
}

const README = /^readme\.(md|mdx|markdown|rst|txt)$/i;
const HOME_PAGE = /(^|\/)index\.mdx?$/i;

export async function describeProject(sources: SummarySources): Promise<ProjectSummary> {
  const readme = await readRootReadme(sources);
  const fromReadme = readme ? describeFromReadme(readme) : {};
  if (fromReadme.description) return fromReadme;
  const home = sources.paths.filter((p) => HOME_PAGE.test(p)).sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))[0];
  const fromHome = home ? describeFromHomePage((await sources.read(home)) ?? '') : {};
  return { ...(fromReadme.title ? { title: fromReadme.title } : {}), ...(fromHome.description ? { description: fromHome.description } : {}) };
}

/** The root README's text; a README whose whole text is the path of another README is followed once. */
async function readRootReadme(sources: SummarySources): Promise<string | undefined> {
  const root = sources.paths.find((p) => README.test(p));
  const text = root ? await sources.read(root) : undefined;
  const target = text?.trim();
  if (target && /^[\w.-]+(\/[\w.-]+)*$/.test(target) && README.test(target.split('/').pop() ?? '') && !target.split('/').includes('..')) {
    return (await sources.read(target)) ?? text;
  }
  return text;
}

const depth = (p: string) => p.split('/').length;

/** The summary a docs home page gives in its front matter. */
export function describeFromHomePage(text: string): ProjectSummary {
  const m = /^(?:\uFEFF)?---\r?\n([\s\S]{0,20000}?)\r?\n---/.exec(text);
  if (!m) return {};
  let meta: unknown;
  try {
    meta = yaml.load(m[1], { json: true });
  } catch {
    return {};
  }
  if (!meta || typeof meta !== 'object') return {};
  const fields = meta as Record<string, unknown>;
  const hero = fields.hero && typeof fields.hero === 'object' ? (fields.hero as Record<string, unknown>) : {};
  const candidates = [fields.description, fields.tagline, hero.tagline, subtitleOf(fields.title)];
  const description = candidates.find((c): c is string => typeof c === 'string' && (c.match(/\p{L}{2,}/gu) ?? []).length >= 3);
  return description ? { description: description.trim().slice(0, README_DESCRIPTION_MAX) } : {};
}

/** "Vue.js - The Progressive JavaScript Framework" → the part after the name. */
function subtitleOf(title: unknown): string | undefined {
  if (typeof title !== 'string') return undefined;
  const parts = title.split(/\s+[-–—|:]\s+/);
  return parts.length === 2 ? parts[1] : undefined;
}
