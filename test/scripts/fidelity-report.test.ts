/**
 * `npm run fidelity` end to end: a small local repository indexed through the real pipeline
 * on temporary stores; the counts printed are those of its snippets, and the stores are
 * dropped afterwards.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRepo } from '../git-server';
import { ensureStores } from '../harness';
import { ROOT_DIR } from '../../src/config';

test('prints placeholder, no-language and leftover-markup counts of a repository, and with --flagged each snippet counted', (t) => {
  ensureStores();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-fidelity-test-'));
  try {
    const bare = createRepo(root, 'acme/book', [
      {
        files: {
          'src/intro.md':
            '# Intro\n\nThe listing that was removed from the book:\n\n```rust\n{{#include ../listings/gone.rs}}\n```\n\nThe listing that exists:\n\n```rust\n{{#include ../listings/main.rs}}\n```\n\n## Running\n\nRun the program with cargo from the root of the crate, then read what it prints.\n',
          // Output the docs leave unlabelled (a command would read as sh, JSON as json).
          'src/shell.md': '# Shell\n\nThe program prints this in a terminal window:\n\n```\nListening on port 8080 (verbose, release build)\n```\n',
          // Liquid tags are markup no parser renders (JSX whitespace like {' '} now is rendered).
          'src/tabs.md': '# Tabs\n\nPick your package manager {% include pm.html %} and install it in your project before anything else.\n',
          'listings/main.rs': 'fn main() {\n    println!("Hello, world!");\n}\n',
        },
      },
    ]);
    const out = execFileSync('npx', ['tsx', 'scripts/eval/fidelity-report.ts', bare, '--json', '--flagged'], {
      cwd: ROOT_DIR,
      env: { ...process.env, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    const rows = JSON.parse(out.trim().split('\n').pop() ?? '[]') as Record<string, number | string>[];
    t.is(rows.length, 1);
    // misplaced: "Running" starts on its own line of the page, below an include of three lines.
    t.like(rows[0], { repo: 'local/book', placeholders: 1, noLanguage: 1, nonEnglish: 0, duplicates: 0, misplaced: 0 });
    t.true(Number(rows[0].leftoverMarkup) >= 1);
    t.true(Number(rows[0].snippets) >= 3);
    t.regex(out, /^repo\s+files\s+snippets\s+code\s+placeholders/m);
    // --flagged: where each counted snippet is and which checks counted it; an unflagged page is not listed.
    t.regex(out, /^local\/book src\/intro\.md:\d+ Intro — placeholder$/m);
    t.regex(out, /^local\/book src\/shell\.md:\d+ Shell — no language$/m);
    t.regex(out, /^local\/book src\/tabs\.md:\d+ Tabs — leftover markup$/m);
    t.notRegex(out, /^local\/book \S*main\.rs/m);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
