/**
 * The capture file of the eval (scripts/eval/capture.ts writes it, replay.ts reads it): per
 * question, the candidates of both legs, the library's term statistics and the question's
 * vector; every candidate's fields and evidence once.
 */
import type { CandidateEvidence, ContextSnippet, ScoredCandidate } from '../../src/search/types';
import type { TermStats } from '../../src/search/term-stats';
import type { SectionQrel } from './sections';

/** A candidate as captured: its id in `docs` and its score in the leg. */
export interface CapturedHit {
  id: string;
  score: number;
}

export interface CapturedQuestion {
  set: 'dev' | 'off-topic' | 'topic';
  index: number;
  variant: string;
  library: string;
  libraryId: string;
  /** The served version (a tag, or latest). */
  version: string;
  intent: string;
  query: string;
  sections: SectionQrel[];
  lexical: CapturedHit[];
  /** kNN hits with Elasticsearch's score ((1 + cosine) / 2). */
  semantic: CapturedHit[];
  /** The parts before each later part among the candidates (what the context use case reads to serve a section whole); absent in older captures. */
  parts?: CapturedHit[];
  /** The library's term statistics for the question's terms. */
  stats: { total: number; df: Record<string, number> };
  queryVector?: number[];
}

export interface Capture {
  questions: CapturedQuestion[];
  /** Every candidate once: its context fields and evidence (vector as numbers). */
  docs: Record<string, { doc: ContextSnippet; text: CandidateEvidence['text']; vector?: number[] }>;
}

/** The legs of a captured question as getContext has them. */
export function legsOf(
  capture: Capture,
  q: CapturedQuestion,
): { lexical: ScoredCandidate[]; semantic: ScoredCandidate[]; parts: ScoredCandidate[]; stats: TermStats; queryVector?: Float32Array } {
  const hit = (h: CapturedHit): ScoredCandidate => {
    const d = capture.docs[h.id]!;
    return { doc: d.doc, score: h.score, evidence: { text: d.text, ...(d.vector ? { vector: Float32Array.from(d.vector) } : {}) } };
  };
  return {
    lexical: q.lexical.map(hit),
    semantic: q.semantic.map(hit),
    parts: (q.parts ?? []).map(hit),
    stats: { total: q.stats.total, df: new Map(Object.entries(q.stats.df)) },
    ...(q.queryVector ? { queryVector: Float32Array.from(q.queryVector) } : {}),
  };
}
