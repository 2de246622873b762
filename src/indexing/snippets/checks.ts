/**
 * Recognisers of low-value snippets, used by the quality score: directory trees, code that
 * only imports, code that only installs packages, licence and changelog text.
 */
import { excludedFileReason } from '../discover/defaults';

const TREE_LINE = /[├└┝┕┣┗]──|[├└]─|^\s*(?:[│┃|]\s+)*[|`+\\]--\s/;
/** A line naming a file or folder: `src/`, `index.ts`, `app/(group)/page.tsx  # comment`. */
const PATH_LINE = /^\s*(?:[-*+]\s+)?[\w.@$()[\]{}~-]+(?:\/[\w.@$()[\]{}~-]+)*\/?\s*(?:(?:#|\/\/|<-|←).*)?$/;
const CALL = /\w\([^)]*\)\s*;?\s*$/;

/** Lines of box-drawing tree output, or mostly bare file and folder names. */
export function isDirectoryTree(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  const tree = lines.filter((l) => TREE_LINE.test(l)).length;
  if (tree >= Math.max(2, lines.length / 2)) return true;
  const paths = lines.filter((l) => PATH_LINE.test(l) && !CALL.test(l) && (/[/\\]/.test(l) || /\.\w{1,6}\b/.test(l))).length;
  return lines.length >= 3 && paths + tree >= lines.length * 0.8;
}

/** Import and include statements of common languages, possibly spanning lines (`import {\n a,\n} from 'x'`). */
const IMPORT_STATEMENTS = [
  /^\s*import\s+(?:type\s+)?(?:[\w$*\s{},]+?\s+from\s+)?['"][^'"\n]+['"]\s*(?:with\s*\{[^}]*\}\s*)?;?/gm,
  /^\s*export\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+['"][^'"\n]+['"]\s*;?/gm,
  /^\s*(?:(?:const|let|var)\s+[\w${}\s,:]+=\s*)?require(?:_relative)?\s*\(?\s*['"][^'"\n]+['"]\s*\)?(?:\.[\w$]+)*\s*;?/gm,
  /^\s*from\s+[\w.]+\s+import\s+(?:\([^)]*\)|[^\n]+)/gm,
  /^\s*import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*\s*;?\s*$/gm,
  /^\s*import\s+(?:static\s+)?[\w.]+(?:\.\*)?\s*;?\s*$/gm,
  /^\s*import\s*\([^)]*\)/gm,
  /^\s*import\s+(?:\w+\s+)?"[^"\n]+"/gm,
  /^\s*using\s+(?:static\s+)?[\w.]+(?:\s*=\s*[\w.<>]+)?\s*;/gm,
  /^\s*#\s*include\s*[<"][^>"\n]+[>"]/gm,
  /^\s*(?:pub\s+)?use\s+[\w:{}\s,*\\]+;/gm,
  /^\s*@(?:import|use|forward)\s+[^;\n]+;?/gm,
  /^\s*(?:extern\s+crate|library|require_once|include_once)\b[^;\n]*;?/gm,
];
const COMMENT_LINE = /^\s*(?:\/\/|#(?!\s*include)|--|\/\*|\*|<!--|;)/;

/** Code whose every statement is an import, require, using or include (comments aside). */
export function isImportOnly(code: string): boolean {
  let rest = code;
  let found = false;
  for (const re of IMPORT_STATEMENTS) {
    rest = rest.replace(re, () => {
      found = true;
      return '';
    });
  }
  return found && rest.split('\n').every((l) => l.trim() === '' || COMMENT_LINE.test(l));
}

const PROMPT = /^\s*(?:\$|>|%|PS>|PS [^>]*>|C:\\[^>]*>)\s*/;
const INSTALL_COMMAND = new RegExp(
  '^(?:sudo\\s+)?(?:' +
    [
      String.raw`npm\s+(?:i|install|add|ci)\b`,
      String.raw`pnpm\s+(?:add|i|install)\b`,
      String.raw`yarn(?:\s+(?:add|install)\b|\s*$)`,
      String.raw`bun\s+(?:add|i|install)\b`,
      String.raw`deno\s+(?:add|install)\b`,
      String.raw`(?:npx\s+)?jsr\s+add\b`,
      String.raw`(?:python[\d.]*\s+-m\s+)?pip[\d.]*\s+install\b`,
      String.raw`(?:pipx|conda|mamba|micromamba|brew|choco|winget|apk|gem)\s+(?:install|add)\b`,
      String.raw`(?:apt|apt-get|dnf|yum|zypper)\s+(?:-\S+\s+)*install\b`,
      String.raw`(?:poetry|uv|pdm|rye|hatch)\s+(?:add|pip\s+install|tool\s+install)\b`,
      String.raw`go\s+(?:get|install)\b`,
      String.raw`cargo\s+(?:add|install)\b`,
      String.raw`composer\s+(?:require|install)\b`,
      String.raw`bundle\s+(?:add|install)\b`,
      String.raw`dotnet\s+add\s+(?:\S+\s+)?package\b`,
      String.raw`Install-Package\b`,
      String.raw`nuget\s+install\b`,
    ].join('|') +
    ')',
  'i',
);

/** Code made only of package-install commands (`npm i x`, `$ pip install y`, `yarn add z && …`). */
export function isInstallOnly(code: string): boolean {
  const commands = code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\s*(#|\/\/|rem\s|::)/i.test(l) && !/^\s*(or|and|then)\s*:?\s*$/i.test(l))
    .flatMap((l) => l.replace(PROMPT, '').split(/\s*(?:&&|;|\|\|)\s*/))
    .map((c) => c.trim())
    .filter((c) => c !== '');
  return commands.length > 0 && commands.every((c) => INSTALL_COMMAND.test(c));
}

const LICENCE_TEXT =
  /permission is hereby granted, free of charge|licensed under the apache license|the software is provided "as is"|gnu (?:lesser |affero )?general public license|redistribution and use in source and binary forms|this source code form is subject to the terms of the mozilla public license/i;
const CHANGELOG_WORDS = String.raw`change ?log|changes|release notes|version history|history|what'?s new|unreleased`;
const VERSION_HEADING = String.raw`\[?v?\d+\.\d+(?:\.\d+)?(?:[-+.][\w.]+)?\]?(?:\s*[-–—(]\s*\d{4}-\d{2}-\d{2}\)?|\s*\(\d{4}[^)]*\))?`;
/** A section's own heading: "Changelog", "License", "v2.1.0 (2024-05-01)". */
const SECTION_HEADING = new RegExp(`^(?:${CHANGELOG_WORDS}|licen[cs]e|copyright|${VERSION_HEADING})$`, 'i');
/** A page title naming a changelog (a README whose only H1 is "License" is not a licence page). */
const PAGE_HEADING = new RegExp(`^(?:${CHANGELOG_WORDS})$`, 'i');

/** Licence text, a changelog entry (a version or "Changelog" heading), or a snippet from a changelog or licence file. */
export function isLicenceOrChangelog(s: { title: string; content: string; code: string; path: string; breadcrumb?: readonly string[] }): boolean {
  const name = s.path.slice(s.path.lastIndexOf('/') + 1);
  const fileReason = excludedFileReason(name, false);
  if (fileReason === 'licence' || fileReason === 'changelog') return true;
  const crumbs = s.breadcrumb ?? [];
  const own = [s.title, crumbs[crumbs.length - 1] ?? ''].map((h) => h.trim());
  if (own.some((h) => SECTION_HEADING.test(h)) || PAGE_HEADING.test((crumbs[0] ?? '').trim())) return true;
  return LICENCE_TEXT.test(s.content) || LICENCE_TEXT.test(s.code);
}
