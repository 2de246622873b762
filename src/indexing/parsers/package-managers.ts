/**
 * Package-manager tabs as their readers see them: one install step with a choice of tool.
 * Docusaurus `<Tabs>`/`<TabItem>`, VitePress `::: code-group` and Starlight `<Tabs
 * syncKey="pkg">` all leave adjacent code blocks, one command per manager; they are merged
 * into ONE code block with each variant labelled (`# npm`, `# yarn`), instead of three
 * near-identical one-line snippets. Starlight's `<PackageManagers pkg="x" />` component,
 * which holds no code in the source, is written out as the commands it renders
 * (`packageManagerCommands`, used by markdown-components.ts).
 *
 * Recognised by the commands, not by tab labels, so any tab syntax (or none) merges.
 */
import type { CodeBlock, DocBlock } from './sections';

/** The manager a command line runs, by its first word (a `$ ` prompt allowed). */
const MANAGER = /^\s*(?:\$\s+)?(npm|npx|yarn|pnpm|pnpx|bun|bunx|deno)\b/;
const NAMES: Record<string, string> = { npx: 'npm', pnpx: 'pnpm', bunx: 'bun' };

/** The one manager every command of a block runs, or undefined. */
export function managerOf(code: string): string | undefined {
  let found: string | undefined;
  for (const line of code.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#') || t.startsWith('//')) continue;
    const m = MANAGER.exec(t);
    if (!m) return undefined;
    const name = NAMES[m[1]] ?? m[1];
    if (found && found !== name) return undefined;
    found = name;
  }
  return found;
}

/**
 * Merges each run of adjacent code blocks that are the same step for different package
 * managers (at least two distinct managers, nothing else between them) into one block.
 */
export function mergePackageManagerTabs(blocks: readonly DocBlock[]): DocBlock[] {
  const out: DocBlock[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const first = b.kind === 'code' ? managerOf(b.code) : undefined;
    if (b.kind !== 'code' || !first) {
      out.push(b);
      continue;
    }
    const run: { block: CodeBlock; manager: string }[] = [{ block: b, manager: first }];
    for (let k = i + 1; k < blocks.length; k++) {
      const next = blocks[k];
      const manager = next.kind === 'code' ? managerOf(next.code) : undefined;
      if (next.kind !== 'code' || !manager || run.some((r) => r.manager === manager)) break;
      run.push({ block: next, manager });
    }
    if (run.length < 2) {
      out.push(b);
      continue;
    }
    out.push({ kind: 'code', language: 'bash', line: b.line, code: labelled(run.map((r) => [r.manager, r.block.code])) });
    i += run.length - 1;
  }
  return out;
}

export function labelled(variants: [string, string][]): string {
  return variants.map(([manager, code]) => `# ${manager}\n${code.trim()}`).join('\n\n');
}

/** The commands `<PackageManagers>` renders for npm, pnpm and Yarn (Starlight's defaults). */
export function packageManagerCommands(tag: string): [string, string][] | undefined {
  const attr = (name: string) =>
    new RegExp(`\\b${name}=(?:"([^"]*)"|'([^']*)'|\\{["'\`]([^"'\`]*)["'\`]\\})`)
      .exec(tag)
      ?.slice(1)
      .find((v) => v !== undefined);
  const pkg = attr('pkg') ?? '';
  const type = attr('type') ?? 'add';
  const args = attr('args') ?? '';
  const dev = /\bdev\b(?!=)|\bdev=\{true\}/.test(tag);
  if (pkg === '' && type !== 'run' && type !== 'install') return undefined;
  const tail = (s: string) => [s, pkg, args].filter(Boolean).join(' ');
  const forms: Record<string, [string, string, string]> = {
    add: [`npm install${dev ? ' -D' : ''}`, `pnpm add${dev ? ' -D' : ''}`, `yarn add${dev ? ' -D' : ''}`],
    install: ['npm install', 'pnpm install', 'yarn install'],
    create: ['npm create', 'pnpm create', 'yarn create'],
    dlx: ['npx', 'pnpm dlx', 'yarn dlx'],
    exec: ['npx', 'pnpm', 'yarn'],
    run: ['npm run', 'pnpm run', 'yarn run'],
  };
  const form = forms[type];
  if (!form) return undefined;
  return [
    ['npm', tail(form[0])],
    ['pnpm', tail(form[1])],
    ['yarn', tail(form[2])],
  ];
}
