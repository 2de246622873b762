import crypto from 'node:crypto';
import test from 'ava';
import { deliveryId, pushedRefs, signBody, verifyDelivery } from './webhook-deliveries';

const secret = 'whs_test-secret';
const body = '{"ref":"refs/heads/main"}';

test('GitHub signs with HMAC-SHA256 in X-Hub-Signature-256 (the documented example)', (t) => {
  // docs.github.com "Validating webhook deliveries": secret "It's a Secret to Everybody", payload "Hello, World!".
  t.is(signBody("It's a Secret to Everybody", 'Hello, World!'), 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  t.true(verifyDelivery('github', { 'x-hub-signature-256': signBody(secret, body) }, body, secret));
  t.false(verifyDelivery('github', { 'x-hub-signature-256': signBody(secret, body) }, `${body} `, secret), 'another body');
  t.false(verifyDelivery('github', { 'x-hub-signature-256': signBody('other', body) }, body, secret));
  t.false(verifyDelivery('github', { 'x-hub-signature': signBody(secret, body) }, body, secret), 'the header of another host');
  t.false(verifyDelivery('github', {}, body, secret));
});

test('GitLab sends the secret itself; Bitbucket and git sign the body', (t) => {
  t.true(verifyDelivery('gitlab', { 'x-gitlab-token': secret }, body, secret));
  t.false(verifyDelivery('gitlab', { 'x-gitlab-token': `${secret}x` }, body, secret));
  t.false(verifyDelivery('gitlab', { 'x-hub-signature-256': signBody(secret, body) }, body, secret));
  t.true(verifyDelivery('bitbucket', { 'x-hub-signature': signBody(secret, body) }, body, secret));
  t.true(
    verifyDelivery('git', { 'x-shelfmark-signature': signBody(secret, body).toUpperCase().replace('SHA256', 'sha256') }, body, secret),
    'hex case does not matter',
  );
  t.false(verifyDelivery('git', { 'x-hub-signature-256': signBody(secret, body) }, body, secret));
});

test("delivery ids come from each host's header, else from the body", (t) => {
  t.is(deliveryId('github', { 'x-github-delivery': 'abc' }, body), 'abc');
  t.is(deliveryId('gitlab', { 'x-gitlab-event-uuid': 'u1' }, body), 'u1');
  t.is(deliveryId('bitbucket', { 'x-hook-uuid': 'h1' }, body), 'h1');
  t.is(deliveryId('git', {}, body), `sha256:${crypto.createHash('sha256').update(body).digest('hex')}`);
});

test('pushed branches and tags; deletions are not updates', (t) => {
  t.deepEqual(pushedRefs('github', { ref: 'refs/heads/main', after: 'a1' }), { branches: ['main'], tags: [] });
  t.deepEqual(pushedRefs('gitlab', { ref: 'refs/tags/v1.2.0', after: 'a1' }), { branches: [], tags: ['v1.2.0'] });
  t.deepEqual(pushedRefs('github', { ref: 'refs/heads/main', deleted: true }), { branches: [], tags: [] });
  t.deepEqual(pushedRefs('gitlab', { ref: 'refs/heads/main', after: '0000000000000000000000000000000000000000' }), { branches: [], tags: [] });
  t.deepEqual(pushedRefs('bitbucket', { push: { changes: [{ new: { type: 'branch', name: 'dev' } }, { new: null }, { new: { type: 'tag', name: 'v2' } }] } }), {
    branches: ['dev'],
    tags: ['v2'],
  });
  t.deepEqual(pushedRefs('git', 'nonsense'), { branches: [], tags: [] });
});
