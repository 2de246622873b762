/**
 * Paraphrase check of the eval: each question asked again in the wordings an assistant or a
 * person uses, so that ranking that leans on question words ("how do I", "in koa?") or on
 * punctuation shows up as a gap between the variants' scores and the original's.
 */

export const VARIANTS = ['original', 'how-do-i', 'in-library', 'lower-no-punct'] as const;
export type Variant = (typeof VARIANTS)[number];

/** The library's everyday name from its id: `/koajs/koa` → koa, `/expressjs/expressjs.com` → expressjs. */
export function libraryName(library: string): string {
  const repo = library.split('/').filter((s) => s !== '')[1] ?? library;
  return repo.replace(/\.(com|org|io|dev|net)$/i, '');
}

/** The question as the variant words it. */
export function phrase(query: string, library: string, variant: Variant): string {
  const q = query.trim();
  const bare = q.replace(/[?.!\s]+$/, '');
  switch (variant) {
    case 'original':
      return q;
    case 'how-do-i':
      return `how do I ${bare.charAt(0).toLowerCase()}${bare.slice(1)}?`;
    case 'in-library':
      return `${bare} in ${libraryName(library)}?`;
    case 'lower-no-punct':
      return q
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim();
  }
}
