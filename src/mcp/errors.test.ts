import test from 'ava';
import { AppError, InternalError, InvalidLibraryIdError, LibraryNotFoundError, RateLimitError, StoreUnavailableError, TagNotFoundError } from '../errors';
import { availableVersions, toolFailure, UNEXPECTED_FAILURE_TEXT } from './errors';
import { errorFromResponse } from './backends/http';
import { errorResponseBody } from '../error-funnel';

test('an unknown library says to call resolve-library-id first', (t) => {
  const f = toolFailure(new LibraryNotFoundError('/a/b'));
  t.false(f.unexpected);
  t.regex(f.text, /^Library \/a\/b does not exist[\s\S]*Call resolve-library-id/);
  t.regex(toolFailure(new InvalidLibraryIdError('b')).text, /Call resolve-library-id/);
});

test('an unknown version lists the available versions as ids, from the error or from its HTTP body (details, not the message)', (t) => {
  const direct = toolFailure(new TagNotFoundError('/a/b', 'v9', ['v2.0.0', 'v1.0.0']));
  t.regex(direct.text, /Use one of the available versions: \/a\/b\/v2\.0\.0, \/a\/b\/v1\.0\.0 or \/a\/b \(without a version\)/);
  const overHttp = (e: AppError) => errorFromResponse(e.status, JSON.stringify(errorResponseBody(e)), new Headers());
  const remote = overHttp(new TagNotFoundError('/a/b', 'v9', ['v2.0.0', 'v1.0.0']));
  t.deepEqual(availableVersions(remote), ['v2.0.0', 'v1.0.0']);
  const withNearest = overHttp(new TagNotFoundError('/a/b', 'v1.0.2', ['v2.0.0', 'v1.0.0'], 'v1.0.0'));
  t.regex(withNearest.message, /Nearest: v1\.0\.0\.$/);
  t.deepEqual(withNearest.details, { libraryId: '/a/b', availableVersions: ['v2.0.0', 'v1.0.0'], nearest: 'v1.0.0', requested: 'v1.0.2' });
  t.regex(toolFailure(withNearest).text, /If the user accepts a nearby version, call again with version "closest:v1\.0\.2"/, 'closest is offered, never taken');
  t.is(toolFailure(remote).text, direct.text);
  // Only the details count: a message alone (an older server) lists nothing.
  t.deepEqual(availableVersions(new AppError(404, 'tag_not_found', remote.message)), []);
  const none = toolFailure(new TagNotFoundError('/a/b', 'v9', []));
  t.regex(none.text, /No other versions are indexed: use \/a\/b \(without a version\)/);
});

test('rate limits tell the model not to retry at once and that a key raises the limit', (t) => {
  const f = toolFailure(new RateLimitError('Rate limit exceeded: 5 requests per minute. Retry in 30 s.', {}));
  t.regex(f.text, /Retry in 30 s\. Do not retry at once[\s\S]*API key/);
});

test('unexpected errors are generic and flagged for the log; temporary outages are exposed', (t) => {
  t.deepEqual(toolFailure(new Error('boom at /secret/path')), { text: UNEXPECTED_FAILURE_TEXT, unexpected: true });
  t.deepEqual(toolFailure(new InternalError('db password wrong')), { text: UNEXPECTED_FAILURE_TEXT, unexpected: true });
  const outage = toolFailure(new StoreUnavailableError('elasticsearch'));
  t.false(outage.unexpected);
  t.regex(outage.text, /Elasticsearch is unavailable[\s\S]*Try again in a moment/);
});
