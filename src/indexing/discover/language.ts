/**
 * Is this prose English? A content check beside the file-name conventions
 * (translations.ts), so a translated page is recognised even when its name does not say
 * so: the share of letters in non-Latin scripts (CJK, Cyrillic, Arabic, …), and for Latin
 * scripts the share of common function words of English against those of the other
 * languages docs are most often translated into. Code (fences, indented blocks, inline
 * code) is left out first: an English page about i18n may hold a lot of Chinese in examples.
 */

/** Letters in scripts English text does not use. */
const NON_LATIN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Greek}\p{Script=Thai}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Georgian}\p{Script=Armenian}]/gu;
const LETTER = /\p{L}/gu;

const ENGLISH = new Set(
  'the of and to in is that for it with as on be are this by you can an or from not your if use which will when have has all but its more these their how also'.split(
    ' ',
  ),
);
const OTHERS: Record<string, Set<string>> = {
  es: new Set('el la los las de del que en es por para con una un se su como más pero sus este esta puede usar cuando también'.split(' ')),
  fr: new Set('le la les de des du et est un une pour que dans qui sur avec pas vous sont ce cette par plus peut être aussi'.split(' ')),
  de: new Set('der die das und ist nicht mit den dem ein eine zu auf für von sie es wird werden auch oder kann wenn sich'.split(' ')),
  pt: new Set('o os as de do da dos das que em é um uma para com não se por como mais pode você também quando'.split(' ')),
  it: new Set('il lo gli di che è per una un con non sono della del nella si come anche può più questo questa quando'.split(' ')),
};

export interface LanguageVerdict {
  english: boolean;
  /** The language or script family when not English ("zh/ja/ko", "cyrillic", "es", ...). */
  language?: string;
  /** Letters of prose looked at (small samples are always English: too little to judge). */
  letters: number;
}

/** Prose shorter than this many letters is not judged. */
const MIN_LETTERS = 40;

/** Removes code from Markdown, reST and AsciiDoc text (fences, listing blocks, inline code). */
export function proseOf(text: string): string {
  return text
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, ' ')
    .replace(/^(-{4,}|\.{4,})[ \t]*\n[\s\S]*?^\1[ \t]*$/gm, ' ')
    .replace(/^(?: {4}|\t)[^\n]*$/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/<[^>\n]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
}

/** The verdict on a piece of prose (call `proseOf` first for whole documents). */
export function judgeLanguage(prose: string): LanguageVerdict {
  const letters = prose.match(LETTER)?.length ?? 0;
  if (letters < MIN_LETTERS) return { english: true, letters };
  const foreign = prose.match(NON_LATIN) ?? [];
  if (foreign.length / letters > 0.3) return { english: false, language: scriptName(foreign), letters };
  const words = prose.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 20) return { english: true, letters };
  const share = (set: Set<string>) => words.filter((w) => set.has(w)).length / words.length;
  const english = share(ENGLISH);
  let best: [string, number] = ['', 0];
  for (const [code, set] of Object.entries(OTHERS)) {
    const s = share(set);
    if (s > best[1]) best = [code, s];
  }
  // Function words are a quarter or more of running text; a language wins clearly or not at all.
  if (best[1] > 0.12 && best[1] > english * 2) return { english: false, language: best[0], letters };
  return { english: true, letters };
}

function scriptName(chars: string[]): string {
  const counts = new Map<string, number>();
  for (const c of chars) {
    const name = /\p{Script=Cyrillic}/u.test(c)
      ? 'cyrillic'
      : /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(c)
        ? 'zh/ja/ko'
        : /\p{Script=Arabic}/u.test(c)
          ? 'arabic'
          : 'other script';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}
