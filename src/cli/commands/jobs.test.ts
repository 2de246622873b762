import test from 'ava';
import { fileProgress } from './jobs';

const progress = { filesTotal: 156, filesParsed: 100, filesSkipped: 1537, filesReused: 50, snippets: 900 };

test('job progress counts parsed + reused files against the files to parse (skipped files are not in the total)', (t) => {
  t.deepEqual(fileProgress({ state: 'parsing', progress }), { done: 150, total: 156 });
  t.deepEqual(fileProgress({ state: 'finalized', progress }), { done: 156, total: 156 });
  t.deepEqual(fileProgress({ state: 'parsing', progress: { ...progress, filesParsed: 200 } }), { done: 156, total: 156 });
  t.deepEqual(fileProgress({ state: 'queued', progress: undefined }), { done: 0, total: 0 });
});
