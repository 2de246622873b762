/**
 * Rate limiting per key (or user session) and per anonymous client address, in fixed
 * one-minute windows shared by all instances through MongoDB. Every request counts in the
 * `standard` class (started by `authenticate`, in parallel with the key lookup);
 * `expensive` routes (add, refresh, upload) also count in their own, lower limit.
 * Responses carry RateLimit-Limit/-Remaining/-Reset; a refusal is 429 with Retry-After.
 */
import type { Middleware } from 'koa';
import type { Ports } from '../../ports';
import type { RateClass, RateDecision, RateTier } from '../../auth/rate-limiter';
import { RateLimitError } from '../../errors';
import { requestAuth } from './auth';

/** What `rateLimit` reaches (ports.ts). */
export type RateLimitPorts = Pick<Ports, 'config' | 'authenticator' | 'settings' | 'rateLimiter' | 'trustedProxy'>;

export function rateLimit(services: RateLimitPorts, options: { class: RateClass }): Middleware {
  return async function rateLimitMiddleware(ctx, next) {
    const auth = requestAuth(services, ctx);
    const decisions =
      options.class === 'expensive'
        ? await Promise.all([auth.standardHit(), services.rateLimiter.hit('expensive', auth.identity, auth.tier)])
        : [await auth.standardHit()];
    const binding = bindingDecision(decisions);
    ctx.set(rateLimitHeaders(binding));
    if (!binding.allowed) throw rateLimitRefusal(binding, auth.tier);
    await next();
  };
}

/** The 429 for a refused decision (its headers and Retry-After included). */
export function rateLimitRefusal(decision: RateDecision, tier: RateTier): RateLimitError {
  const who = tier === 'key' ? 'this API key' : 'anonymous use from your address (an API key raises it)';
  return new RateLimitError(
    `Rate limit exceeded: ${decision.limit} requests per minute for ${who}. Retry in ${decision.retryAfter} s.`,
    { ...rateLimitHeaders(decision), 'Retry-After': String(decision.retryAfter) },
    decision.retryAfter,
  );
}

/** The decision that limits the request: a refusal if any, else the one with least room. */
export function bindingDecision(decisions: RateDecision[]): RateDecision {
  const refused = decisions.find((d) => !d.allowed);
  if (refused) return refused;
  return decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return { 'RateLimit-Limit': String(d.limit), 'RateLimit-Remaining': String(d.remaining), 'RateLimit-Reset': String(d.reset) };
}
