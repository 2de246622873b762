/**
 * The store monitor's MongoDB read (store/mongo-probe.ts) against the real store behind a
 * loopback proxy: a probe whose first connection met a store that was down, or that hung,
 * reads again once the store is back (the driver keeps a client whose first connection
 * failed closed for ever, so the server would answer 503 until restarted).
 */
import test from 'ava';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy';
import { ensureStores } from '../harness';
import { loadConfig } from '../../src/config';
import { mongoReadProbe } from '../../src/store/mongo-probe';

let proxy: TcpProxy;

test.before(async () => {
  ensureStores();
  const mongo = new URL(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }).mongodbUri);
  proxy = await startTcpProxy(mongo.hostname, Number(mongo.port || 27017));
});
test.after.always(async () => {
  await proxy?.close();
});

const uri = () => `mongodb://127.0.0.1:${proxy.port}/`;

test.serial('a probe whose first read met a store that was down reads once the store is back', async (t) => {
  await proxy.stop();
  const probe = mongoReadProbe(uri(), 'shelfmark_probe_test');
  try {
    await t.throwsAsync(probe.read(1000));
    await t.throwsAsync(probe.read(1000), undefined, 'still down');
    await proxy.start();
    const ms = await probe.read(1000);
    t.true(ms >= 0 && ms < 1000);
    t.true((await probe.read(1000)) >= 0, 'and the next read too');
  } finally {
    await probe.close();
    await proxy.start();
  }
});

test.serial('a probe that read before, then met a hanging store, fails within its timeout and reads again after', async (t) => {
  const probe = mongoReadProbe(uri(), 'shelfmark_probe_test');
  try {
    t.true((await probe.read(1000)) >= 0);
    await proxy.hang();
    const started = Date.now();
    await t.throwsAsync(probe.read(1000));
    t.true(Date.now() - started < 2000, 'bounded by the timeout asked');
    await proxy.start();
    t.true((await probe.read(1000)) >= 0);
  } finally {
    await probe.close();
    await proxy.start();
  }
});
