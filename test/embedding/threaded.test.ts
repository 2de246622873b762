/**
 * Documents are embedded in a thread of their own (src/embedding/threaded.ts): onnxruntime-node
 * runs inference synchronously, so on the main thread a batch holds the event loop for its
 * whole run. Needs the model the install step fetches (scripts/install/install-model.mjs, run by
 * `npm test`).
 */
import test from 'ava';
import { defaultModelDir, loadEmbedder, missingModelFiles, type Embedder } from '../../src/embedding/embedder';
import { threadedEmbedder } from '../../src/embedding/threaded';

const dir = process.env.SHELFMARK_EMBEDDING_MODEL_DIR ?? defaultModelDir();
const options = { maxTokens: 64 };
let inner: Embedder;

test.before(async () => {
  const missing = missingModelFiles(dir);
  if (missing.length > 0)
    throw new Error(`No embedding model at ${dir} (missing ${missing.join(', ')}): run node scripts/install/install-model.mjs (npm test does).`);
  inner = await loadEmbedder(dir, options);
});
test.after.always(async () => {
  await inner?.close();
});

const texts = Array.from({ length: 48 }, (_, i) =>
  `Section ${i}: configure connect and read timeouts of the client, retries and pool limits, with an example. `.repeat(2),
);

/** Runs `work` while a 1 ms timer ticks; the longest time the event loop went without a tick. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

test.serial('the thread gives the same vectors and the same model id as the main thread', async (t) => {
  const threaded = threadedEmbedder(inner, dir, options);
  try {
    t.is(threaded.modelId, inner.modelId);
    const [fromThread, fromMain] = [await threaded.embed(texts.slice(0, 5)), await inner.embed(texts.slice(0, 5))];
    t.is(fromThread.length, 5);
    for (let i = 0; i < 5; i++) t.deepEqual(Array.from(fromThread[i]!), Array.from(fromMain[i]!));
    t.deepEqual(await threaded.embed([]), []);
  } finally {
    await threaded.close();
  }
});

test.serial('embedding documents in the thread leaves the event loop turning; on the main thread a batch stalls it', async (t) => {
  // One batch of 16 on the main thread: the loop does not turn until it is done.
  const mainStall = await longestStall(() => inner.embed(texts.slice(0, 16)));
  const threaded = threadedEmbedder(inner, dir, options);
  try {
    await threaded.embed(['warm the thread up']);
    const threadStall = await longestStall(() => threaded.embed(texts));
    t.log(
      `longest stall: ${mainStall.toFixed(0)} ms for one batch on the main thread, ${threadStall.toFixed(0)} ms while the thread embedded ${texts.length} texts`,
    );
    t.true(
      threadStall < mainStall / 2,
      `the loop stalled ${threadStall.toFixed(0)} ms while the thread worked (one batch on the main thread: ${mainStall.toFixed(0)} ms)`,
    );
  } finally {
    await threaded.close();
  }
});

test.serial('a thread that cannot load its model rejects the batch, saying why, and the next batch tries again', async (t) => {
  const broken = threadedEmbedder(inner, '/nonexistent/model', options);
  try {
    const error = await t.throwsAsync(() => broken.embed(['x']));
    t.regex(error!.message, /lacks model\.onnx/);
    await t.throwsAsync(() => broken.embed(['y']), { message: /lacks model\.onnx/ });
  } finally {
    await broken.close();
  }
});
