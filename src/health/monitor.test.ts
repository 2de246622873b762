import test from 'ava';
import { StoreGate, StoreMonitor, type StoreProbe } from './monitor';
import { createLogger } from '../logger';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Probes that answer at once and count their reads (the monitor's cadence is what is tested, not a store). */
function countingProbes(): { probes: StoreProbe[]; reads: () => number } {
  let n = 0;
  const probe = (name: StoreProbe['name']): StoreProbe => ({ name, read: async () => (n++, 1) });
  return { probes: [probe('mongodb'), probe('elasticsearch')], reads: () => n };
}

test('without requests the monitor probes at the idle interval; a request brings the short one back at once', async (t) => {
  const { probes, reads } = countingProbes();
  const monitor = new StoreMonitor({ probes, gate: new StoreGate(), log: createLogger('silent'), intervalMs: 20, idleIntervalMs: 600, idleAfterMs: 100 });
  monitor.start();
  try {
    await sleep(1000);
    // Two stores per probe; at 20 ms that would be ~100 reads.
    t.true(reads() <= 8, `${reads()} reads while idle`);
    const before = reads();
    monitor.touch();
    await sleep(50);
    t.true(reads() > before, 'the first request after an idle spell probes at once');
    for (let i = 0; i < 5; i++) {
      monitor.touch();
      await sleep(40);
    }
    t.true(reads() - before >= 8, `${reads() - before} reads while requests come (every 20 ms)`);
  } finally {
    monitor.stop();
  }
});

test('a store that is down is probed at the short interval even when idle', async (t) => {
  let n = 0;
  const probes: StoreProbe[] = [
    {
      name: 'mongodb',
      read: async () => {
        n++;
        throw new Error('down');
      },
    },
  ];
  const gate = new StoreGate();
  const monitor = new StoreMonitor({ probes, gate, log: createLogger('silent'), intervalMs: 20, idleIntervalMs: 5000, idleAfterMs: 0 });
  await monitor.check();
  await monitor.check();
  t.true(gate.isDown('mongodb'));
  monitor.start();
  try {
    const before = n;
    await sleep(300);
    t.true(n - before >= 5, `${n - before} probes of a down store in 300 ms`);
  } finally {
    monitor.stop();
  }
});
