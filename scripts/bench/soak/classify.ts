/**
 * Which answers each call expects, and how an answer counts (pure). The deadline is the
 * same for every call and every health read: no answer within {@link WEDGE_MS} is a wedge.
 */
import type { Outcome } from './minute';

/** A request or health read that has no answer after this long is wedged. */
export const WEDGE_MS = 10_000;

export interface Expectation {
  /** Statuses that mean the call did what it is for. */
  ok: readonly number[];
  /** Planned refusals: a bad input's 4xx, an add answering 504 while its job carries on. */
  expected?: readonly number[];
}

export interface AnswerFacts {
  /** 0 = no answer. */
  status: number;
  ms: number;
  /** Transport error ("timed out" when the deadline passed). */
  error?: string;
  /** The error code of a JSON error body (`{ error: "..." }`), for details. */
  code?: string;
  /**
   * Why an answer with an ok status is still wrong (an MCP tool result with isError, a
   * context without snippets), or undefined.
   */
  bodyProblem?: string;
}

export interface Classified {
  outcome: Outcome;
  detail?: string;
}

/**
 * How an answer counts, given what the call expects and whether a chaos window is open:
 * in a window a 503 (service_unavailable) and an ok status whose body reports the outage
 * (an MCP tool error) are tolerated; outside one they are unexpected.
 */
export function classifyAnswer(answer: AnswerFacts, expect: Expectation, chaos: boolean): Classified {
  if (answer.status === 0) {
    if (answer.error === 'timed out' || answer.ms >= WEDGE_MS) return { outcome: 'wedge', detail: `no answer within ${WEDGE_MS / 1000} s` };
    return { outcome: 'unexpected', detail: `no answer: ${answer.error ?? 'connection failed'}` };
  }
  if (answer.ms >= WEDGE_MS) return { outcome: 'wedge', detail: `answered ${answer.status} only after ${(answer.ms / 1000).toFixed(1)} s` };
  const code = answer.code ? ` ${answer.code}` : '';
  if (expect.ok.includes(answer.status)) {
    if (answer.bodyProblem === undefined) return { outcome: 'ok' };
    return chaos ? { outcome: 'tolerated', detail: answer.bodyProblem } : { outcome: 'unexpected', detail: `${answer.status}: ${answer.bodyProblem}` };
  }
  if (answer.status === 429) return { outcome: 'rate-limited' };
  if (expect.expected?.includes(answer.status)) return { outcome: 'expected' };
  if (answer.status === 503 && chaos) return { outcome: 'tolerated', detail: `503${code}` };
  return { outcome: 'unexpected', detail: `${answer.status}${code} (expected ${[...expect.ok, ...(expect.expected ?? [])].join('/')})` };
}

/** The `error` code of a JSON error body, when there is one. */
export function errorCodeOf(body: string | undefined): string | undefined {
  if (!body || body[0] !== '{') return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.error && typeof parsed.error === 'object' && 'code' in parsed.error) return `jsonrpc ${String((parsed.error as { code: unknown }).code)}`;
  } catch {
    return undefined;
  }
  return undefined;
}
