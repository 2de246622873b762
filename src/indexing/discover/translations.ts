/**
 * Translations of the docs: language folders (`docs/zh/`, `i18n/fr/…`, `src/content/docs/ja/`)
 * and language-suffixed files (`README.zh-CN.md`, `README_KO.md`, `index.fr.md`). English is
 * what we index; an `en` folder beside language-named folders is the strongest sign that
 * those folders are translations.
 */

/** Language codes that are hardly ever anything else as a folder name. */
const CLEAR = new Set(
  'ar az bg bn da de el es et fa fi fr he hr hu hy ja ka kk ko lt lv mn nb nl pl pt ro ru sk sl sq sr sv th tl tr uk ur vi zh fil'.split(' '),
);
/** Country codes docs use for a language (`page.cn.mdx`, `README-jp.adoc`, `docs/kr/`). */
const COUNTRY_ALIASES: Record<string, string> = { cn: 'zh', jp: 'ja', kr: 'ko', tw: 'zh-tw', ua: 'uk', gr: 'el', cz: 'cs', dk: 'da', se: 'sv', ir: 'fa' };
/** Codes that are also words or abbreviations (`id`, `it`, `no`, `my`…): translations only with other evidence. */
const AMBIGUOUS = new Set('id it ms my no ca cs hi be is ta te em km ky uz yo gl eu ne si af ga lo sw'.split(' '));
/** Scripts that may follow a language (`zh-hant`, `sr-latn`). */
const SCRIPTS = new Set(['hans', 'hant', 'latn', 'cyrl', 'arab']);
/** Folders whose children are named by language. */
const CONTAINERS = new Set(['i18n', 'l10n', 'locales', 'locale', 'translations', 'translated', 'lang', 'langs', 'languages']);
/** Folders that hold nothing but translations (except an English folder in them). */
const WHOLLY_TRANSLATED = new Set(['translations', 'translated', 'l10n']);
/** Folders under which a clearly language-named folder is a translation. */
const DOC_ROOTS = new Set(['doc', 'docs', 'documentation', 'content', 'website', 'site', 'pages', 'guide', 'guides', 'manual', 'book']);

type Strength = 'regional' | 'clear' | 'ambiguous';

interface Language {
  code: string;
  english: boolean;
  strength: Strength;
}

/** Reads `zh`, `zh-CN`, `zh_Hant`, `pt-br`, `es-419`, `en-US` as a language; undefined for other names. */
export function parseLanguage(name: string): Language | undefined {
  const m = /^([a-z]{2,3})(?:[-_]([a-z]{2}|\d{3}|[a-z]{4}))?(?:[-_]([a-z]{2}|\d{3}))?$/.exec(name.toLowerCase());
  if (!m) return undefined;
  const [, base, sub, region] = m;
  if (sub && sub.length === 4 && !SCRIPTS.has(sub)) return undefined;
  const code = name.toLowerCase().replace(/_/g, '-');
  if (base === 'en') return { code, english: true, strength: 'clear' };
  // `cn`, `jp`, `kr`, `tw` are clear; the other country codes are also words or abbreviations.
  if (COUNTRY_ALIASES[base] && !sub) return { code, english: false, strength: ['cn', 'jp', 'kr', 'tw'].includes(base) ? 'clear' : 'ambiguous' };
  if (!CLEAR.has(base) && !AMBIGUOUS.has(base)) return undefined;
  return { code, english: false, strength: sub || region ? 'regional' : CLEAR.has(base) ? 'clear' : 'ambiguous' };
}

/**
 * Whether the folder `dirs[i]` of a file is a non-English translation. `hasDir` answers for
 * lower-cased folder paths of the whole repository (to find an `en` sibling).
 */
export function translationDirReason(dirs: readonly string[], i: number, hasDir: (lowerPath: string) => boolean): string | undefined {
  const d = dirs[i];
  const parentName = i > 0 ? dirs[i - 1].toLowerCase() : '';
  if (WHOLLY_TRANSLATED.has(d.toLowerCase()) && !(i + 1 < dirs.length && parseLanguage(dirs[i + 1])?.english)) return `translation (in ${d}/)`;
  const lang = parseLanguage(d);
  if (!lang || lang.english) return undefined;
  const parent = dirs.slice(0, i).join('/').toLowerCase();
  const prefix = parent ? `${parent}/` : '';
  const englishSibling = ['en', 'en-us', 'en_us', 'en-gb', 'en_gb'].some((e) => hasDir(prefix + e));
  const inContainer = CONTAINERS.has(parentName);
  const atDocRoot = i === 0 || DOC_ROOTS.has(parentName);
  if (englishSibling || inContainer || lang.strength === 'regional' || (lang.strength === 'clear' && atDocRoot)) return `translation (${lang.code})`;
  return undefined;
}

/**
 * Whether a file name marks a translation: `name.<lang>.ext` (mkdocs-static-i18n, Hugo) or
 * `README[-_.]<lang>.ext`. An ambiguous code after a dot counts only when the untranslated
 * file (`hasFile(dir/name.ext)`) exists beside it.
 */
export function translationFileReason(dir: string, name: string, hasFile: (path: string) => boolean): string | undefined {
  const m = /^(.+?)([._-])([a-z]{2,3}(?:[-_][a-z0-9]{2,4}){0,2})\.([a-z0-9]+)$/i.exec(name);
  if (!m) return undefined;
  const [, stem, sep, code, ext] = m;
  const lang = parseLanguage(code);
  if (!lang || lang.english) return undefined;
  const readme = /^readme$/i.test(stem);
  if (sep !== '.' && !readme) return undefined;
  if (lang.strength === 'ambiguous' && !readme && !hasFile(`${dir ? `${dir}/` : ''}${stem}.${ext}`)) return undefined;
  return `translation (${lang.code})`;
}
