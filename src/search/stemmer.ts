/**
 * The Porter stemmer (M.F. Porter, "An algorithm for suffix stripping", 1980), with the two
 * later corrections of the reference implementation ("bli" → "ble", "logi" → "log").
 * Implemented here because the Elasticsearch we must support (the server-core
 * integ-test distribution) has no stemming filter: all analysis happens in Node.
 * Input: one lowercase ASCII word. Anything else is returned unchanged.
 */

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isConsonant(w, i - 1); // y
  return true;
}

/** m: the number of VC sequences in w[0..end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return n;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3 || !isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

/** Replaces `suffix` by `replacement` when the stem before it has a measure above `minMeasure`. */
function replaceIfMeasure(w: string, suffix: string, replacement: string, minMeasure: number): string | undefined {
  if (!w.endsWith(suffix)) return undefined;
  const stemEnd = w.length - suffix.length;
  return measure(w, stemEnd) > minMeasure ? w.slice(0, stemEnd) + replacement : w;
}

function step1ab(w: string): string {
  if (w.endsWith('s')) {
    if (w.endsWith('sses')) w = w.slice(0, -2);
    else if (w.endsWith('ies')) w = w.slice(0, -2);
    else if (!w.endsWith('ss')) w = w.slice(0, -1);
  }
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let stripped: string | undefined;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) stripped = w.slice(0, -3);
  if (stripped === undefined) return w;
  w = stripped;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
  if (endsDoubleConsonant(w, w.length)) {
    const last = w[w.length - 1];
    return last === 'l' || last === 's' || last === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return w + 'e';
  return w;
}

function step1c(w: string): string {
  return w.endsWith('y') && hasVowel(w, w.length - 1) ? w.slice(0, -1) + 'i' : w;
}

function applyTable(w: string, table: ReadonlyArray<readonly [string, string]>): string {
  for (const [suffix, replacement] of table) {
    const out = replaceIfMeasure(w, suffix, replacement, 0);
    if (out !== undefined) return out;
  }
  return w;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    if (measure(w, stemEnd) <= 1) return w;
    if (suffix === 'ion') {
      const before = w[stemEnd - 1];
      return before === 's' || before === 't' ? w.slice(0, stemEnd) : w;
    }
    return w.slice(0, stemEnd);
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

/** Stems one lowercase ASCII word; words of two letters or fewer, or with other characters, are kept. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  w = step1c(w);
  w = applyTable(w, STEP2);
  w = applyTable(w, STEP3);
  w = step4(w);
  return step5(w);
}
