/**
 * Every tunable number of retrieval and ranking, in one place, so the evaluation
 * (scripts/eval) can sweep them. Functions take these as a default parameter; tune them on
 * the whole question set and by kind of signal, never for one question.
 */
type DeepReadonly<T> = { readonly [K in keyof T]: T[K] extends object ? DeepReadonly<T[K]> : T[K] };

const DEFAULT_WEIGHTS = {
  /** Elasticsearch query (queries/context.ts, queries/libraries.ts). */
  query: {
    /** BM25F field weights of the main `combined_fields` clause (each must be ≥ 1). */
    fields: { searchTitle: 3, searchBreadcrumb: 2, searchBody: 1, searchCode: 1, searchPath: 1.5 },
    main: 1,
    /** Extra weight for query words in headings (best of title and breadcrumb). */
    headings: 0.6,
    headingFields: { searchTitle: 1, searchBreadcrumb: 0.7 },
    /** Word pairs of the query found side by side (shingle subfields). */
    pairs: 0.6,
    pairFields: { 'searchTitle.shingles': 1.5, 'searchBody.shingles': 1, 'searchCode.shingles': 0.7 },
    maxPhrases: 8,
    /** Exact identifiers (`ctx.cookies.set`, `safeParse`, `lean()`). */
    identifiers: 1.5,
    /** Quoted segments as phrases with a little slop. */
    exactPhrase: 2,
    phraseSlop: 2,
    maxExactPhrases: 4,
    /** Synonyms brought in by query expansion. */
    expansions: 0.25,
    /** Query words that only name the library ("koa" in a koa question). */
    libraryName: 0.1,
  },
  /** Node-side re-ranking (ranking.ts). */
  rerank: {
    /** Share of the final score from the snippet's own normalised ES score. */
    snippet: 0.75,
    /** Share from its page's evidence (sum of the page's best snippet scores, normalised). */
    page: 0.25,
    /** How many of a page's best snippets make its evidence. */
    pageEvidenceTop: 3,
    /** Bonus when a query identifier appears in the title (times fraction of identifiers found). */
    identifierInTitle: 0.3,
    /** Bonus when it appears in the code, description or content. */
    identifierInBody: 0.15,
    /** Code-vs-prose balance: a code snippet is multiplied by 1 + kindBalance·(wantsCode − 0.5)·2, info by the opposite. */
    kindBalance: 0.2,
    /** The k-th snippet (0-based) of the same page is multiplied by decay^k ... */
    samePageDecay: 0.55,
    /** ... or by dominantDecay^k when its page holds at least this share of the top evidence. */
    dominantShare: 0.5,
    dominantDecay: 0.85,
    /** Snippets with fewer tokens than this are slightly penalised (import-only lines and the like). */
    minUsefulTokens: 25,
    shortPenalty: 0.85,
  },
  /** Reciprocal rank fusion (fusion.ts). */
  fusion: { k: 60 },
  /**
   * Hybrid retrieval: how the lexical and kNN legs are fused (fusion.ts `fuseHybrid`).
   * Measured on dev.yaml (80 questions; lexical alone MRR 0.875, Hit@5 0.963, nDCG@5 0.792):
   * RRF 0.870 / 0.963 / 0.805; blend 0.4 stretched over the kNN list's own span 0.872 /
   * 0.975 / 0.822; blend 0.4 graded on a fixed cosine scale of 0.2: 0.879 / 0.975 / 0.820
   * (10 kNN hits: 0.878 / 0.975 / 0.822); blend 0.25: 0.860. Every variant lost on flask
   * (0.889 → 0.65, exact error strings and settings names outranked by near neighbours);
   * halving the semantic share for questions naming identifiers: 0.877 / 0.975 / 0.816,
   * flask 0.833, no library more than 0.06 below lexical.
   *
   * Gap filling (fusion.ts `fillGaps`), measured offline on both legs of every dev.yaml
   * question (MRR / Hit@5 / nDCG@10; lexical 0.870 / 0.963 / 0.802 on that capture, the
   * blend above 0.880 / 0.975 / 0.831 but troubleshooting 0.865 → 0.771, flask −0.06, zod
   * and comparison below lexical): fill 0.8 at scale 0.2 gives 0.879 / 0.975 / 0.816 with
   * no library and no intent below lexical; every weight from 0.7 to 0.9 at scales 0.1–0.3
   * gives 0.877–0.885 with none below (a plateau, not a tuned point). A linear share,
   * w·s·(1 − l), put zod back 0.11 below lexical: the square is what protects strong
   * lexical matches. No blend setting (weights 0.2–0.4, scales 0.1–0.3, identifier factor
   * 0.5 or 1, 10 or 20 kNN hits) kept every library and intent at or above lexical.
   * On a second capture (mapping v4, one merged segment: lexical 0.875 / 0.963 / 0.804, as
   * the live eval) fill 0.8 / 0.2 put httpx 0.03 below lexical: one question with no clear
   * neighbour at all (best cosine 0.52; generic READMEs graded as if they matched) pushed
   * its lexical answers down. Grading against at least a confident cosine of 0.6 (about the
   * 10th percentile of the best neighbour's cosine on dev questions; median 0.70): 0.879 /
   * 0.975 / 0.816, none below lexical, and the same for weights 0.7–0.8 at scales 0.1–0.2
   * and for 0.55 at 0.1.
   *
   * Page evidence (`pageWeight`, `pageTop`; 26 Nov 2026, both legs of every dev question
   * captured and replayed offline, which reproduces the live eval exactly): the remaining
   * misses ranked the right page second behind one strong lexical match on another page,
   * while several of the kNN leg's nearest snippets sat on the right page. Adding the mean
   * of a page's best 3 grades x 0.3 to its candidates, except for questions that name
   * identifiers or error strings (there the words are the answer), on three captures (the
   * former int8-weight vectors; fp32 documents with fp32 queries; fp32 documents with the
   * int8 query graph served now; hybrid without it 0.879 / 0.975 / 0.816 on the first):
   * MRR 0.898–0.899, Hit@5 0.975, nDCG@10 0.835–0.836, the same for weights 0.3–0.4 and
   * tops 2–3 (a plateau). With page evidence for every question too: 0.887–0.901 by capture,
   * flask and troubleshooting below lexical. The best grade alone (top 1) does not help
   * (0.871–0.874: one cosine is noise); adding the evidence to the re-ranker's page share
   * instead gave 0.872–0.892. Below lexical in every variant: one click comparison question
   * whose first judged page moves from rank 2 to 3 behind an unjudged page on input files.
   */
  hybrid: {
    method: 'fill' as 'fill' | 'blend' | 'rrf',
    /** Gap filling: the most the semantic leg can add (to a snippet the lexical leg missed). */
    fillWeight: 0.8,
    /**
     * Gap filling: what a page's semantic evidence (the mean of its best `pageTop` grades
     * among the kNN hits) adds to each of its candidates at most; 0 turns it off.
     */
    pageWeight: 0.3,
    pageTop: 3,
    /** Gap filling: semantic grades are measured from the best neighbour's cosine, or from this one when the best is lower. */
    confidentCosine: 0.6,
    /** Blend: the semantic leg's share of the fused score. */
    semantic: 0.4,
    /** Blend: the semantic share is multiplied by this when the question names code identifiers. */
    identifierFactor: 0.5,
    /** Fill and blend: a neighbour this much less similar (cosine) than the best one gets no semantic share. */
    cosineScale: 0.2,
    /** RRF: the rank constant. */
    rrfK: 60,
    /** kNN: nearest snippets fetched (at most the lexical leg's size): a few strong neighbours, not a second long list. */
    knnHits: 10,
    /** kNN: candidates examined per shard, as a multiple of the hits asked for (at least 100). */
    numCandidatesFactor: 4,
  },
  /**
   * Re-scoring the candidate pool in Node (rescore.ts). Measured on dev-sections.yaml with
   * section snippets (26–27 Nov 2026, both legs captured and replayed offline,
   * scripts/eval/replay.ts; S-MRR, the mean over the question and its three rewordings):
   * Elasticsearch's order 0.724; its best fusion with the kNN leg 0.73–0.74; BM25F with the
   * library's own document frequencies and every candidate's cosine 0.81–0.83 over a
   * plateau (lexical 0.6 with semantic 0.3–0.4 at scales 0.2–0.4, title 0–0.4, headings
   * 0–0.2; chosen on half the libraries, the other half scored within 0.01–0.04 of its best);
   * Elasticsearch's score beside them added nothing. Document vectors of 128 tokens ranked
   * 0.01–0.03 better than of 64. Tried and left out (each at best equal, mostly worse):
   * k1 0.8/1.6 and b 0.5/0.9; pools of 100 lexical and 40 kNN candidates (more distractors);
   * a second vector of the heading path alone (−0.01 to −0.03); IDF-weighted word pairs side
   * by side (−0.005); a page-intro factor and page evidence; a listwise model learned over
   * these features and more (leave-one-library-out 0.807: the hand-set sum is not beaten).
   */
  rescore: {
    /** BM25F field weights over the analysed fields. */
    fields: { searchTitle: 3, searchBreadcrumb: 2, searchBody: 1, searchCode: 1, searchPath: 1.5, searchIdentifiers: 1 },
    k1: 1.2,
    b: 0.75,
    /** Share of BM25F (normalised by the pool's best). */
    lexical: 0.6,
    /** Share of the cosine, graded 1 at the pool's best cosine down to 0 at `cosineScale` below it. */
    semantic: 0.3,
    cosineScale: 0.3,
    /** Share of the question's term weight (library IDF) in the snippet's own heading ... */
    title: 0.3,
    /** ... and in its heading path. */
    headings: 0.15,
  },
  /** Page kinds (page-kinds.ts): multipliers of a snippet's re-scored score. */
  pageKinds: {
    /** Pages for maintainers and redirect stubs (kept only when a repository config asks). */
    internal: 0.5,
    blog: 0.7,
    blogForChange: 1,
    /** A changelog or migration guide, for a how-to question ... */
    changeForHowTo: 0.75,
    /** ... and one about another version than the question's. */
    otherVersionForHowTo: 0.6,
    /** For a question about what changed: a page about the version it asks about ... */
    targetForChange: 1.2,
    /** ... a page about no version in particular ... */
    changeForChange: 1.1,
    /** ... and a page about another version. */
    otherVersionForChange: 0.7,
    /**
     * An error or warning catalogue, for a question not about an error. Capture replay: the
     * held-out set's relevant share 0.372 → 0.385 (svelte 0.480 → 0.610) at 0.5–0.8 alike,
     * 0.377 at 0.9, S-MRR and S-any unchanged; the dev set has no such page in its answers.
     * Topics such as "context" or "each blocks" on svelte, "model config" on pydantic, led by
     * compile-error and usage-error entries before, lead with the pages about them.
     */
    errorsForOther: 0.6,
  },
  /** From the re-scored pool to the answer (answer.ts). */
  answer: {
    /**
     * Lexical candidates fetched for the pool, and nearest neighbours (with embeddings on). The
     * dev figures are the same for pools of 30 + 10 and 60 + 20 (S-MRR 0.825–0.827, S-any 0.975,
     * off-topic 36/36; 100 + 40 was worse): the smaller pool halves the re-scoring and the kNN leg.
     */
    lexicalHits: 30,
    knnHits: 10,
    /**
     * A snippet scoring below this share of the best one is not part of the answer. On the dev
     * set (and its rewordings) 0.5 / 0.53 / 0.55 / 0.6 give S-any 0.975 / 0.975 / 0.963 / 0.963,
     * median tokens 2,038 / 1,766 / 1,457 / 1,243 and relevant share 0.30 / 0.32 / 0.34 / 0.37:
     * the floor trades the answer holding a relevant section at all against the share of it
     * that is relevant; 0.53 is the tightest that keeps S-any ≥ 0.97.
     */
    relativeFloor: 0.53,
    /**
     * A long snippet must be more relevant to be worth its tokens: beyond `sizeFloorFrom`
     * tokens the relative floor rises by this much for each doubling (the best snippet is
     * always kept). Dev replay, as asked: 0 / 0.1 / 0.2 / 0.3 / 0.5 gave S-any 0.975 up to 0.3,
     * then 0.938; median tokens 1,766 → 1,038, relevant share 0.317 → 0.376; S-MRR unchanged.
     * With the lone-hit floor and the introductions' weight, 0.2 / 0.25 / 0.3 / 0.35 give
     * share 0.385 / 0.400 / 0.411 / 0.416 (two older captures: the same +0.016 from 0.2 to
     * 0.25); 0.25 is the largest with no wording losing a relevant section (0.3 loses one).
     */
    sizeFloor: 0.25,
    sizeFloorFrom: 200,
    /**
     * A snippet that is the only one of its page above the floors is a lone hit: nothing else
     * on its page answers, so it must score this share of the best to be served (the best
     * snippet is always kept; a page with two candidates above the floors supports both). On
     * the dev set (capture replay, as asked; in brackets the worst of the three rewordings),
     * off / 0.6 / 0.62 / 0.65 / 0.7 give S-any 0.975 (0.963) / 0.975 (0.963) / 0.975 (0.963) /
     * 0.975 (0.950) / 0.963 (0.950), median tokens 1,299 / 1,218 / 1,121 / 1,077 / 1,012 and
     * relevant share 0.367 / 0.375 / 0.380 / 0.391 / 0.406; S-MRR 0.840 throughout. Counting
     * over the whole pool gained less, scaling by length lost relevant sections. 0.62 is the
     * largest with no wording losing a relevant section. With repeated evidence left out
     * (`sameEvidence`), 0.62 / 0.63 / 0.64 / 0.65 give dev share as asked 0.486 / 0.491 /
     * 0.494 / 0.498 (held-out 0.390 / 0.391 / 0.394 / 0.396); 0.65 loses a section in the
     * "in <library>" wording, so 0.64.
     */
    lonePageFloor: 0.64,
    /**
     * A candidate whose cosine is more than `farCosine` below the pool's best is served only
     * when it scores `farFloor` of the best snippet (answer.ts `nearEnough`): its words, not
     * its meaning, brought it over the floors. Capture replay (dev as asked and its three
     * rewordings; held-out as asked), relevant share 0.416 / 0.325 without it: far 0.22–0.28
     * with a floor of 0.8–0.9 give 0.429–0.439 / 0.332–0.336 with S-any unchanged on every
     * wording of both sets and S-MRR up by 0.002–0.003; far 0.2 loses a relevant section on
     * the dev set. A candidate below `cosineFloor` (the level under which nothing in a pool is
     * about the question) is far too: share 0.462 / 0.357 → 0.471 / 0.370 with parts paying for
     * themselves, S-any unchanged on every wording (an absolute floor of 0.42 loses a section).
     * Recalibrated by the same rule once repeated evidence and the lone-hit floor of 0.64 were
     * in: 0.22 (docs/FIGURES.md, "A clear lead").
     */
    farCosine: 0.22,
    farFloor: 0.85,
    /**
     * Adjacent parts of one section in an answer become one snippet while it stays within this
     * many tokens (a fifth of the default budget; stored snippets stay under ~800): the section
     * whole, not in pieces. Replay, dev / held-out S-MRR as asked: off 0.848 / 0.729, 800 0.848
     * / 0.733, 1,000 0.851 / 0.733, 1,200 0.851 / 0.736; tokens and S-any are unchanged.
     */
    mergedPartsCeiling: 1000,
    /**
     * At most this many sections holding exactly the same words of the question are served
     * (answer.ts `withoutRepeatedEvidence`; the parts of one section are one section; not for
     * a question of one term, whose sections all hold that one word).
     * Capture replay, relevant share as asked / "how do I" / "in <library>" / lower case,
     * lone-hit floor 0.62: off 0.472 / 0.469 / 0.443 / 0.425, 3 0.483 / 0.479 / 0.452 /
     * 0.436, 2 0.486 / 0.484 / 0.457 / 0.440, 1 0.499 / 0.496 / 0.472 / 0.452; held-out as
     * asked 0.391 / 0.388 / 0.390 / 0.392. S-any holds on every wording of both sets at 2 and 3
     * (1 loses three dev sections); S-MRR 0.852 → 0.854. Keyed by page and words, or by the
     * heading above, it gained less or lost held-out share.
     */
    sameEvidence: 2,
    /**
     * A clear lead (answer.ts `withClearLead`): when the best page's best snippet scores more
     * than `leadFrom` (a share of the best) above every other page's, another page's snippet
     * needs the relative floor plus `leadGain` times the lead beyond that, unless its cosine
     * is within `leadCosine` of the pool's best. The gain is the largest with no wording of
     * either set losing a relevant section; without the cosine exemption every gain loses
     * some (docs/FIGURES.md, "A clear lead").
     */
    leadFrom: 0.03,
    leadGain: 0.8,
    leadCosine: 0.15,
    /**
     * An answer is not a page copied out: a page's candidates beyond the first
     * `pageRepeatsFrom` (in rank order) each need the length-weighted floor raised by
     * `pageRepeatStep` more than the one before (the fourth by 3 %, the fifth by 6 %, …). On
     * the dev set (capture replay, as asked; three captures) the relevant share rises by 0.012–
     * 0.021 (0.400 → 0.417 on the freshest) with S-MRR and S-any unchanged on every wording; a
     * step of 0.05 loses a relevant section in one rewording on two captures, and counting
     * from the third or fifth candidate instead of the fourth gains less or loses one. A budget
     * above the default shrinks the step in proportion (more of the same pages is asked for).
     */
    pageRepeatsFrom: 3,
    pageRepeatStep: 0.03,
    /**
     * A page's introduction (the text before its first heading) weighs this much when the pool
     * also holds a section of that page: the section says how, and a question asks how. In the
     * dev set's pools, 3 of 35 introductions ranked in a top 8 beside a section of their page
     * answer the question, against 7 of 19 of pages with no section in the pool (left as they
     * are). Capture replay, as asked (mean of the three rewordings): 1 / 0.8 / 0.75 / 0.5 give
     * S-MRR 0.840 (0.830) / 0.841 (0.833) / 0.848 (0.837) / 0.848 (0.837), S-any unchanged,
     * no question ranked worse; the section's rank in the pool (best 5, 10, 20, any) is moot.
     */
    pageIntro: 0.75,
    /**
     * A page, or its top section, whose own heading holds exactly the question's terms and no
     * other ("Request Body" for "request body", "Watchers" for "watchers") weighs this much
     * more: a topic asked is answered by the page about it first. Deeper sections named so
     * ("MongoDB with MongoEngine > Configuration") are not, and a question is never a heading.
     * Topic replay (eval/topics.yaml and topics-holdout.yaml, 195 topics): 1.15 / 1.2 / 1.3 / 1.5
     * change the first snippets of 13 / 19 / 34 / 58 topics, nearly all to the page about the
     * topic; dev and held-out figures unchanged at every value. 1.3: the page leads where it
     * was near the top already.
     */
    namedPage: 1.3,
    /**
     * Two candidates on different pages whose vectors are at least this close are one section
     * copied (a package README repeating the docs): served once, from the documentation's page.
     * On the dev set 0.90–0.97 all find the same copies (zod's README mirrors its docs) and
     * give S-MRR 0.826 → 0.832; no other pair of an answer's snippets is above 0.9.
     */
    copyCosine: 0.95,
    /**
     * No snippet is relevant when the best cosine in the pool is below this (embeddings on):
     * on the dev set (as asked and reworded) the best cosine is 0.45 at least, on the off-topic
     * set 0.31 at most (eval/off-topic.yaml); the held-out set (eval/off-topic-holdout.yaml,
     * not used to choose) reached 0.353. The floor sits between, nearer the off-topic side.
     */
    cosineFloor: 0.38,
    /**
     * The question's words in a candidate's own heading count towards the cosine floor: a
     * heading holding the question's whole weight lowers the cosine it needs by this much.
     * Questions from other domains put at most 0.40 of their weight in one heading (off-topic
     * sets, and two-word topics such as "poker rules" or "oil painting"), so their best blend
     * stays below the floor (0.353 → 0.358 at most); a question whose words name a section
     * ("forward /api requests to my backend" → `server.proxy`'s page) is answered.
     */
    headingEvidence: 0.15,
    /**
     * A candidate holding every term of the question needs this much less cosine: all its
     * words in one section are evidence the vectors of a small model can miss ("run code on
     * startup and shutdown" and Starlette's lifespan page: cosine 0.31, every term held).
     * No question of the off-topic sets (90, dev and held-out) has a candidate holding all its
     * terms, so none of them is answered by it; the dev and held-out answers are unchanged.
     */
    wholeQuestion: 0.1,
    /**
     * A topic of at most this many terms ("configuration", "url_for", "pass data to child") is
     * about the library when one candidate holds all its terms, whatever its cosine: a word or
     * two embeds poorly (best cosines 0.16–0.37 for on-topic topics such as "timeout",
     * "settings", "lean"), while the two-word topics of other domains never had every term in
     * one snippet (eval/topics.yaml and the off-topic sets).
     */
    topicTerms: 3,
    /**
     * Without vectors: no snippet is relevant when none holds this share of the question's
     * terms. Words alone separate less well (dev questions: 0.36 at least; off-topic ones up
     * to 0.67, "the capital city of Australia" on react.dev), so this floor only catches
     * gibberish and questions from far away; with embeddings on the cosine floor decides.
     */
    coverageFloor: 0.3,
    /**
     * With a `language` asked for (not strictly): a snippet whose examples are all in other
     * languages weighs this much, so the sections with examples in that language come first
     * and the relative floor drops the others when enough of those answer. Prose without code
     * keeps its weight. Without `language` nothing changes.
     */
    otherLanguage: 0.6,
  },
  /**
   * Across libraries (retrieval/search-across.ts): a library's answer weighs by how its best
   * cosine compares to the best library's, graded on this scale (as rescore grades snippets).
   */
  across: {
    cosineScale: 0.15,
    /** Libraries asked in full when the whole catalogue or a team's set is searched (the best by content first). */
    maxLibraries: 6,
    /** Catalogue entries (most trusted first) whose content is compared for such a search: its cost stays bounded as the catalogue grows. */
    maxCandidates: 2000,
  },
  /** Catalogue ranking (catalog.ts). */
  catalog: {
    name: 1,
    content: 0.35,
    /** A name match below this fraction of the best name score is padding and is cut. */
    padding: 0.6,
    trust: 0.03,
    benchmark: 0.02,
    snippets: 0.02,
  },
};

export type SearchWeights = DeepReadonly<typeof DEFAULT_WEIGHTS>;
export const SEARCH_WEIGHTS: SearchWeights = DEFAULT_WEIGHTS;
export type QueryWeights = SearchWeights['query'];
export type RerankWeights = SearchWeights['rerank'];
export type CatalogWeights = SearchWeights['catalog'];
export type HybridWeights = SearchWeights['hybrid'];
export type RescoreWeights = SearchWeights['rescore'];
export type AnswerWeights = SearchWeights['answer'];
export type PageKindWeights = SearchWeights['pageKinds'];
