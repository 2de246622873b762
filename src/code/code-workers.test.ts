import test from 'ava';
import { CodeThreads } from './code-workers';
import { TimeoutError, ValidationError } from '../errors';
import type { SharedTree } from './code-thread';

function sharedTree(files: string[]): SharedTree {
  const bufs = files.map((f) => Buffer.from(f));
  const total = bufs.reduce((n, b) => n + b.length, 0);
  const content = new SharedArrayBuffer(total);
  const offsets = new SharedArrayBuffer(files.length * 8);
  const lengths = new SharedArrayBuffer(files.length * 8);
  let at = 0;
  bufs.forEach((b, i) => {
    new Uint8Array(content).set(b, at);
    new Float64Array(offsets)[i] = at;
    new Float64Array(lengths)[i] = b.length;
    at += b.length;
  });
  return { content, offsets, lengths };
}

const request = (pattern: string, regex: boolean, deadline: number) => ({
  pattern,
  regex,
  caseSensitive: true,
  wholeWord: false,
  maxMatches: 10,
  maxPerFile: 10,
  deadline,
});

test('a thread scans a shared tree and parses its files', async (t) => {
  const threads = new CodeThreads(1);
  t.teardown(() => threads.close());
  const tree = sharedTree(['export function hello() {}\n', 'hello();\n']);
  // 100 ms is less than a new thread takes to start: its start is not the request's time.
  const reply = await threads.run({ op: 'scan', tree, request: request('hello', false, Date.now() + 100) }, Date.now() + 100);
  t.true('scan' in reply && reply.scan.matches.length === 2 && reply.scan.stoppedBy === null, JSON.stringify(reply));
  const outline = await threads.run({ op: 'outline', tree, files: [{ file: 0, language: 'typescript' }], deadline: Date.now() + 5000 }, Date.now() + 5000);
  t.true('outlines' in outline && outline.outlines[0].symbols[0].name === 'hello');
});

test('a bad pattern is a validation error; a pattern that backtracks without end is stopped at the deadline and the pool goes on', async (t) => {
  const threads = new CodeThreads(1);
  t.teardown(() => threads.close());
  const tree = sharedTree([`${'a'.repeat(40)}!\n`, 'plain line\n']);
  await t.throwsAsync(threads.run({ op: 'scan', tree, request: request('(oops', true, Date.now() + 5000) }, Date.now() + 5000), {
    instanceOf: ValidationError,
  });
  const started = Date.now();
  // (a|aa)+$ against 40 a's and a "!" backtracks ~fib(40) times: minutes, unless stopped.
  await t.throwsAsync(threads.run({ op: 'scan', tree, request: request('(a|aa)+$', true, Date.now() + 300) }, Date.now() + 300), { instanceOf: TimeoutError });
  const took = Date.now() - started;
  t.true(took < 5000, `stopped after ${took} ms`);
  const after = await threads.run({ op: 'scan', tree, request: request('plain', false, Date.now() + 5000) }, Date.now() + 5000);
  t.true('scan' in after && after.scan.matches.length === 1, 'a new thread answers the next request');
});
