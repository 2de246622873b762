/**
 * Sphinx autodoc: `.. autoclass::`, `.. autofunction::`, `.. automodule::`, `.. automethod::`,
 * `.. autoexception::` and `.. autoattribute::` (`py:` prefixes too) become the API entries
 * they generate, taken from the repository's own Python source at the same commit by the
 * code-docs generator (codedocs/python.ts), placed where the directive stands.
 *
 * An entry is written as a `.. shelfmark:api::` directive whose argument is the entry as JSON
 * on one line; the reST parser turns it into a code snippet with its own title, description
 * and heading (the documented path, `attrs.field()`; a real heading would take over the prose
 * that follows the directive).
 *
 * Names resolve like Sphinx: qualified (`pkg.mod.Class`), or under the current module
 * (`.. module::`/`.. currentmodule::`/`.. automodule::` before it), and a member directive
 * indented in an `autoclass`'s body (`.. automethod:: render([context])` under
 * `.. autoclass:: Template`) in that class first. Module files are looked for under the repository root,
 * `src/`, `lib/`, `python/` and the folders conf.py adds with a literal `sys.path.insert`;
 * a name a package re-exports (`from .app import Flask`, `from x import *`) is followed to
 * its defining module.
 * Options honoured: `:members:` (all, or a list), `:exclude-members:`; the generator keeps
 * only documented members, so `:undoc-members:` adds nothing. A name that cannot be found
 * leaves the directive (the parser drops it) and is logged as `unresolved`.
 */
import path from 'node:path';
import type { ParsedSnippet } from '../types';
import { pythonModuleName, snippetsFromPython } from '../codedocs/python';
import { replaceAsync, type IncludeResolver } from './resolver';

/** A line that sets the current module, or an autodoc directive with its options. */
const STATEMENT =
  /^([ \t]*)\.\.[ \t]+(?:py:)?(module|currentmodule|automodule|autoclass|autoexception|autofunction|automethod|autoattribute|autoproperty|autodata|autodecorator)::[ \t]*(\S[^\n]*)\n?((?:\1[ \t]+:[\w-]+:[^\n]*\n?)*)/gm;

/** Directives that document a member of the class whose body they are indented in. */
const MEMBER_DIRECTIVES = new Set(['automethod', 'autoattribute', 'autoproperty', 'autofunction', 'autodata', 'autodecorator', 'autoclass', 'autoexception']);

export const AUTODOC_DIRECTIVE = /\.\.\s+(?:py:)?auto(?:module|class|exception|function|method|attribute|property|data|decorator)::/;

/** One generated entry, as the reST parser receives it. */
export interface ApiEntry {
  title: string;
  /** The name the docs import it by (`attrs.field`, `flask.Flask`), where it differs from the title's: the entry's heading. */
  name?: string;
  description: string;
  code: string;
  language: string;
}

/** Re-exports followed at most this deep (`pkg/__init__` → `pkg/app` → ...). */
const MAX_HOPS = 4;
/** Modules of a package read at most when looking for a name it exports lazily. */
const MAX_SCANNED = 400;

export async function expandAutodoc(text: string, r: IncludeResolver): Promise<string> {
  if (!AUTODOC_DIRECTIVE.test(text)) return text;
  const roots = await moduleRoots(r);
  const parsed = new Map<string, ParsedSnippet[]>();
  let current = '';
  // The autoclass whose body a directive is indented in: its members resolve in its class.
  let enclosing: { indent: number; names: string[] } | undefined;
  return replaceAsync(text, STATEMENT, async (m) => {
    const [whole, indent, name, rawTarget, optionText] = m;
    const target = rawTarget.trim().replace(/\(.*$/, '').trim();
    if (enclosing && indent.length <= enclosing.indent) enclosing = undefined;
    if (name === 'module' || name === 'currentmodule') {
      current = target === 'None' ? '' : target;
      return whole;
    }
    const options = new Map([...optionText.matchAll(/:([\w-]+):[ \t]*([^\n]*)/g)].map((o) => [o[1], o[2].trim()]));
    const finder = new Finder(r, roots, parsed);
    const inClass = enclosing && MEMBER_DIRECTIVES.has(name) ? enclosing.names.map((c) => `${c}.${target}`) : [];
    const entries = await finder.entries(name, target, current, options, inClass);
    if (name === 'automodule') current = target;
    if (name === 'autoclass' || name === 'autoexception') enclosing = { indent: indent.length, names: candidates(target, current) };
    if (entries === undefined) {
      r.problem(target, 'unresolved');
      return whole;
    }
    const trailing = whole.endsWith('\n') ? '\n' : '';
    return entries.map((e) => `${indent}.. shelfmark:api:: ${JSON.stringify(e)}\n`).join(`\n`) + (entries.length > 0 ? '' : trailing);
  });
}

/** What an API reference generated from docstrings shows for a target (apiLookup). */
export type ApiLookup = (target: string, members?: readonly string[]) => Promise<ApiEntry[] | undefined>;

/**
 * For one document (module roots found and modules parsed once for all its directives): the
 * entries mkdocstrings' `::: pkg.mod.Name` shows, a class or function with its documented
 * members (only `members` when given), else a module's documented top-level names;
 * undefined when the target cannot be found.
 */
export async function apiLookup(r: IncludeResolver): Promise<ApiLookup> {
  const finder = new Finder(r, await moduleRoots(r), new Map());
  return async (target, members) => {
    const options = new Map([['members', (members ?? []).join(',')]]);
    return (await finder.entries('autoclass', target, '', options)) ?? (await finder.entries('automodule', target, '', options));
  };
}

/** Folders module paths resolve from: conf.py's literal sys.path entries, then common roots. */
async function moduleRoots(r: IncludeResolver): Promise<string[]> {
  const roots: string[] = [];
  for (const conf of r.files.paths().filter((p) => /(^|\/)conf\.py$/.test(p))) {
    const text = (await r.files.read(conf)) ?? '';
    const dir = path.posix.dirname(conf);
    for (const m of text.matchAll(/sys\.path\.(?:insert\(\s*\d+\s*,|append\()\s*(?:os\.path\.abspath\(\s*)?(['"])([^'"]+)\1/g)) {
      const root = path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, m[2])).replace(/^\.\/?$/, '');
      if (!root.startsWith('..')) roots.push(root === '.' ? '' : root);
    }
  }
  return [...new Set([...roots, '', 'src', 'lib', 'python'])];
}

class Finder {
  constructor(
    private readonly r: IncludeResolver,
    private readonly roots: string[],
    private readonly parsed: Map<string, ParsedSnippet[]>,
  ) {}

  /** The entries a directive generates, or undefined when its target cannot be found. */
  async entries(
    directive: string,
    target: string,
    current: string,
    options: Map<string, string>,
    inClass: readonly string[] = [],
  ): Promise<ApiEntry[] | undefined> {
    const members = memberFilter(options);
    if (directive === 'automodule') {
      const file = this.moduleFile(target);
      if (!file) return undefined;
      const snippets = await this.snippetsOf(file);
      // Without :members: a module entry is its docstring's examples only.
      const kept = snippets.filter((s) => (members ? members(topName(s)) : s.breadcrumb.length <= 1));
      return kept.map((s) => entryOf(s));
    }
    const names = [...inClass, ...candidates(target, current)];
    for (const qualified of names) {
      const found = await this.symbol(qualified);
      if (!found) continue;
      const { snippets, local } = found;
      const own = snippets.filter((s) => titleName(s.title) === local || s.title === `${local} example` || s.title.startsWith(`${local} example `));
      if (own.length === 0) continue;
      const withMembers = directive === 'autoclass' || directive === 'autoexception';
      const extra =
        withMembers && members ? snippets.filter((s) => s.breadcrumb.includes(`class ${local}`) && !own.includes(s) && members(memberName(s, local))) : [];
      const named = qualified !== local && qualified.endsWith(`.${local}`) ? { local, qualified } : undefined;
      return [...own.map((s) => entryOf(s, named)), ...extra.map((s) => entryOf(s))];
    }
    return undefined;
  }

  /** The snippets of the module defining `qualified` and the name inside it (`Class.method`). */
  private async symbol(qualified: string): Promise<{ snippets: ParsedSnippet[]; local: string } | undefined> {
    const parts = qualified.split('.');
    for (let cut = parts.length - 1; cut >= 1; cut--) {
      const file = this.moduleFile(parts.slice(0, cut).join('.'));
      if (!file) continue;
      const [head, ...rest] = parts.slice(cut);
      const defining = await this.definingFile(file, head, 0);
      if (!defining) continue;
      return { snippets: await this.snippetsOf(defining.file), local: [defining.name, ...rest].join('.') };
    }
    // A name the package exports lazily (a `__getattr__` table, not an import): where it is defined.
    const file = parts.length >= 2 ? await this.definedUnder(parts[0], parts[1]) : undefined;
    return file ? { snippets: await this.snippetsOf(file), local: parts.slice(1).join('.') } : undefined;
  }

  /**
   * The module under package `pkg` that defines `name` at its top level, public modules and
   * shallower ones first (`pkg/main.py` before `pkg/v1/main.py` or `pkg/_internal/x.py`).
   */
  private async definedUnder(pkg: string, name: string): Promise<string | undefined> {
    const init = this.moduleFile(pkg);
    if (!init?.endsWith('/__init__.py') || !/^\w+$/.test(name)) return undefined;
    const base = init.slice(0, -'__init__.py'.length);
    const rank = (p: string) => [
      p
        .slice(base.length)
        .split('/')
        .some((seg) => seg.startsWith('_') && seg !== '__init__.py')
        ? 1
        : 0,
      p.split('/').length,
    ];
    const files = this.r.files
      .paths()
      .filter((p) => p.startsWith(base) && p.endsWith('.py') && p !== init)
      .map((p) => ({ p, r: rank(p) }))
      .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.p.localeCompare(b.p))
      .slice(0, MAX_SCANNED);
    const defines = new RegExp(`^(?:async[ \\t]+def|def|class)[ \\t]+${name}\\b`, 'm');
    for (const { p } of files) if (defines.test((await this.r.files.read(p)) ?? '')) return p;
    return undefined;
  }

  /** Where `name` is defined, under which name: `file` itself, or the module it imports it from. */
  private async definingFile(file: string, name: string, hops: number): Promise<{ file: string; name: string } | undefined> {
    const text = (await this.r.files.read(file)) ?? '';
    if (new RegExp(`^(?:async\\s+def|def|class)\\s+${name}\\b|^${name}\\s*[:=]`, 'm').test(text)) return { file, name };
    if (hops >= MAX_HOPS) return undefined;
    for (const m of text.matchAll(/^from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)/gm)) {
      const imported = m[2]
        .replace(/#[^\n]*/g, '')
        .replace(/[()\n]/g, ' ')
        .split(',')
        .map((s) => s.trim().split(/\s+as\s+/));
      const hit = imported.find(([orig, alias]) => (alias ?? orig) === name);
      if (!hit) continue;
      const from = this.moduleFile(absoluteModule(m[1], file));
      if (from) return this.definingFile(from, hit[0], hops + 1);
    }
    // `from attr.exceptions import *` (attrs re-exports whole modules this way).
    for (const m of text.matchAll(/^from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\*/gm)) {
      const from = this.moduleFile(absoluteModule(m[1], file));
      const found = from && from !== file ? await this.definingFile(from, name, hops + 1) : undefined;
      if (found) return found;
    }
    return undefined;
  }

  /** `pkg.mod` → `<root>/pkg/mod.py` or `<root>/pkg/mod/__init__.py`, read through the resolver. */
  private moduleFile(module: string): string | undefined {
    if (!/^[\w.]+$/.test(module)) return undefined;
    const rel = module.replace(/\./g, '/');
    for (const root of this.roots) {
      for (const c of [`${rel}.py`, `${rel}/__init__.py`, `${rel}.pyi`]) {
        const p = root ? `${root}/${c}` : c;
        if (this.r.files.has(p)) return p;
      }
    }
    return undefined;
  }

  private async snippetsOf(file: string): Promise<ParsedSnippet[]> {
    const cached = this.parsed.get(file);
    if (cached) return cached;
    const text = await this.r.load(file, file);
    const snippets = text === undefined ? [] : snippetsFromPython({ path: file, text });
    this.parsed.set(file, snippets);
    return snippets;
  }
}

/** `.helpers` in `pkg/app.py` → `pkg.helpers`; absolute names stay. */
function absoluteModule(spec: string, file: string): string {
  const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
  if (dots === 0) return spec;
  const pkg = pythonModuleName(file.endsWith('__init__.py') ? file : path.posix.dirname(file) + '/__init__.py').split('.');
  const base = pkg.slice(0, pkg.length - (dots - 1));
  return [...base, spec.slice(dots)].filter(Boolean).join('.');
}

/** Fully qualified candidates for a target: as written, then under the current module. */
function candidates(target: string, current: string): string[] {
  const out = [];
  if (current) out.push(`${current}.${target}`);
  out.push(target);
  return out.filter((n) => n.includes('.'));
}

/** `:members:` → a predicate on member names; undefined when the option is absent. */
function memberFilter(options: Map<string, string>): ((name: string) => boolean) | undefined {
  if (!options.has('members')) return undefined;
  const listed = (options.get('members') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const excluded = new Set(
    (options.get('exclude-members') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return (name) => !excluded.has(name) && (listed.length === 0 || listed.includes(name));
}

/** `class Flask` → Flask; `Flask.run()` → Flask.run; `Flask.config` → Flask.config. */
function titleName(title: string): string {
  return title.replace(/^class\s+/, '').replace(/\(\)$/, '');
}

/** The top-level name a module snippet documents (`Flask` for `Flask.run()`). */
function topName(s: ParsedSnippet): string {
  return titleName(s.breadcrumb[1] ?? s.title)
    .replace(/ example( \d+)?$/, '')
    .split('.')[0];
}

/** A member's own name within its class (`run` for `Flask.run()`). */
function memberName(s: ParsedSnippet, cls: string): string {
  return titleName(s.title)
    .replace(/ example( \d+)?$/, '')
    .slice(cls.length + 1)
    .split('.')[0];
}

/** An entry as the include writes it, named by its documented path (`attrs.field`, not where it is defined: `attr._make.field`) as the site shows it. */
function entryOf(s: ParsedSnippet, named?: { local: string; qualified: string }): ApiEntry {
  const name = named ? s.title.replace(named.local, named.qualified) : s.title;
  return { title: s.title, ...(name !== s.title ? { name } : {}), description: s.description, code: s.code, language: s.language };
}
