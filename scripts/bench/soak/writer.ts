/**
 * The soak's writes: adds of its Git repositories (through /github and /git), refreshes
 * (with a commit in between, or none, and sometimes the same refresh sent to both servers
 * at once so the two workers race), and OpenAPI uploads (force=true, sometimes to both
 * servers at once). Every library a write added is remembered for the end checks.
 *
 * The local Git server is test/git-server.ts, imported as it is: it depends only on node:
 * modules and `git http-backend`, and the soak serves repositories exactly as the tests do.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRepo, startGitServer, type GitServer } from '../../../test/git-server';
import { addOp, refreshOp, uploadOp, pick, type Question } from './mix';
import { bulkFiles, chaosRepos, libraryIdOfRepo, refreshChange, repoFiles, repoQuestions, soakRepos, type OpenApiDoc, type SoakRepo } from './fixtures';
import type { LoopDeps, Server } from './traffic';

/** Generated pages of each chaos repository: about 4 s of indexing each on 2 cores. */
const CHAOS_VOLUME = 1000;

/** The soak's Git server with its repositories (aurora also has a tagged older version; the chaos ones are big). */
export async function startSoakGit(chaos: boolean): Promise<{ git: GitServer; repos: SoakRepo[]; reserve: SoakRepo[] }> {
  const git = await startGitServer();
  const repos = soakRepos();
  const reserve = chaos ? chaosRepos() : [];
  for (const repo of reserve) createRepo(git.root, repo.repoPath, [{ files: bulkFiles(repo, CHAOS_VOLUME) }]);
  for (const repo of repos) {
    const files = repoFiles(repo);
    if (repo.name === 'aurora') {
      // An older tagged version that context7.json lists, so adding latest queues its build too.
      const old = {
        ...files,
        'docs/legacy.md': '# Legacy API\n\nThe v1 `aurora.legacyLamp()` call, removed in v2.\n\n```js\naurora.legacyLamp({ on: true });\n```\n',
      };
      const config = JSON.stringify({ projectTitle: 'Aurora', previousVersions: [{ tag: 'v1.0.0' }] });
      createRepo(git.root, repo.repoPath, [{ files: { ...old, 'context7.json': config }, tag: 'v1.0.0' }, { files: { ...files, 'context7.json': config } }]);
    } else createRepo(git.root, repo.repoPath, [{ files }]);
  }
  return { git, repos, reserve };
}

const git = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'soak',
  GIT_AUTHOR_EMAIL: 'soak@shelfmark',
  GIT_COMMITTER_NAME: 'soak',
  GIT_COMMITTER_EMAIL: 'soak@shelfmark',
};

/**
 * Commits `files` to a bare repository's main branch. Like test/git-server.ts commitToRepo,
 * but without blocking the event loop, which would delay the soak's timers and inflate the
 * latencies it measures.
 */
export async function commitFiles(bare: string, files: Record<string, string>): Promise<void> {
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'shelfmark-soak-'));
  try {
    await git('git', ['clone', '-q', '-b', 'main', bare, work], { env: GIT_ENV });
    for (const [p, content] of Object.entries(files)) {
      await fs.promises.mkdir(path.dirname(path.join(work, p)), { recursive: true });
      await fs.promises.writeFile(path.join(work, p), content);
    }
    await git('git', ['add', '-A'], { cwd: work, env: GIT_ENV });
    await git('git', ['commit', '-q', '-m', 'soak change'], { cwd: work, env: GIT_ENV });
    await git('git', ['push', '-q', 'origin', 'main'], { cwd: work, env: GIT_ENV });
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

export interface AddedLibrary {
  libraryId: string;
  /** A question its docs answer, for the end check. */
  question: string;
  how: string;
}

export class SoakWriter {
  /** Libraries the soak added (an add or upload answered 200, or 504 with its job carrying on). */
  readonly added = new Map<string, AddedLibrary>();
  private readonly refreshes = new Map<string, number>();
  /** Commits one at a time (two pushes to one repository would race). */
  private commits: Promise<void> = Promise.resolve();
  private step = 0;

  constructor(
    private readonly deps: LoopDeps & { key: string },
    private readonly git: GitServer,
    private readonly repos: readonly SoakRepo[],
    private readonly docs: readonly OpenApiDoc[],
    /** Big repositories kept for the chaos kills (`addReserve`). */
    private readonly reserve: readonly SoakRepo[] = [],
  ) {}

  /** Adds the next big repository (for a chaos kill) and refreshes a changed one on every server at once. */
  async startJobsForChaos(): Promise<void> {
    const next = this.reserve.find((r) => !this.added.has(libraryIdOfRepo(r)));
    const changed = this.addedRepos()[0];
    await Promise.all([next ? this.add(next) : Promise.resolve(), changed ? this.refresh(changed, { change: true, race: true }) : Promise.resolve()]);
  }

  private server(i = this.step): Server {
    return this.deps.servers[i % this.deps.servers.length];
  }

  private repoUrl(repo: SoakRepo): string {
    return repo.host === 'git' ? `${this.git.url}/${repo.repoPath}.git` : `${this.git.url}/${repo.repoPath}`;
  }

  private questionsOf(repo: SoakRepo): Question[] {
    const id = libraryIdOfRepo(repo);
    return repoQuestions(repo).map((query) => ({ libraryId: id, query }));
  }

  async add(repo: SoakRepo, server = this.server()): Promise<void> {
    const sent = await this.deps.client.send(addOp(server.url, repo.host, this.repoUrl(repo), this.deps.key), server);
    if (sent.sample.status !== 200 && sent.sample.status !== 504) return;
    const id = libraryIdOfRepo(repo);
    this.added.set(id, { libraryId: id, question: repoQuestions(repo)[0], how: `add repo/${repo.host}` });
    if (sent.sample.status === 200) this.deps.pool.add(id, this.questionsOf(repo));
  }

  /** Commits a change (unless `change` is false), then refreshes; `race` sends it to every server at once. */
  async refresh(repo: SoakRepo, options: { change: boolean; race: boolean }): Promise<void> {
    if (options.change) {
      const n = (this.refreshes.get(repo.name) ?? 0) + 1;
      this.refreshes.set(repo.name, n);
      const commit = this.commits.then(() => commitFiles(path.join(this.git.root, `${repo.repoPath}.git`), refreshChange(repo, n)));
      this.commits = commit.catch(() => undefined);
      await commit;
    }
    const targets = options.race ? this.deps.servers : [this.server()];
    await Promise.all(
      targets.map((s) =>
        this.deps.client.send({ ...refreshOp(s.url, libraryIdOfRepo(repo), this.deps.key), kind: options.race ? 'refresh (race)' : 'refresh' }, s),
      ),
    );
  }

  async upload(doc: OpenApiDoc, options: { race: boolean }): Promise<void> {
    const targets = options.race ? this.deps.servers : [this.server()];
    const sent = await Promise.all(
      targets.map((s) => this.deps.client.send(uploadOp(s.url, doc, this.deps.key, `soak${crypto.randomBytes(8).toString('hex')}`), s)),
    );
    for (const { sample, body } of sent) {
      if (sample.status !== 200) continue;
      const libraryId = (JSON.parse(body) as { libraryName: string }).libraryName;
      this.added.set(libraryId, { libraryId, question: doc.questions[0] ?? 'how do I authenticate', how: `upload ${doc.fileName}` });
      this.deps.pool.add(
        libraryId,
        doc.questions.map((query) => ({ libraryId, query })),
      );
    }
  }

  /** The repositories not added yet. */
  pending(): SoakRepo[] {
    return this.repos.filter((r) => !this.added.has(libraryIdOfRepo(r)));
  }

  private addedRepos(): SoakRepo[] {
    return this.repos.filter((r) => this.added.has(libraryIdOfRepo(r)));
  }

  /** One write of the cycle: add, refresh after a change, upload, refresh without a change. */
  async next(): Promise<void> {
    this.step++;
    const { random } = this.deps;
    const added = this.addedRepos();
    const kind = this.step % 4;
    if (kind === 0 || added.length === 0) {
      const pending = this.pending();
      await this.add(pending.length > 0 ? pending[0] : pick(this.repos, random));
    } else if (kind === 1) await this.refresh(pick(added, random), { change: true, race: this.step % 8 === 1 });
    else if (kind === 2 && this.docs.length > 0) await this.upload(pick(this.docs, random), { race: this.step % 8 === 2 });
    else await this.refresh(pick(added, random), { change: false, race: false });
  }

  async loop(intervalMs: number): Promise<void> {
    while (!this.deps.stopper.stopped) {
      const started = Date.now();
      await this.next();
      await this.deps.stopper.sleep(intervalMs - (Date.now() - started));
    }
  }

  /** Questions of a library the catalogue lists as built (`version` other than latest), if it is one of the soak's. */
  questionsFor(libraryId: string, version = 'latest'): Question[] {
    if (version !== 'latest') {
      return libraryId === '/soak/aurora' && version === 'v1.0.0'
        ? [{ libraryId: `${libraryId}/${version}`, query: 'how do I turn on a legacy lamp with aurora' }]
        : [];
    }
    const repo = [...this.repos, ...this.reserve].find((r) => libraryIdOfRepo(r) === libraryId);
    if (repo) return this.questionsOf(repo);
    const doc = this.added.get(libraryId)?.how.startsWith('upload')
      ? this.docs.find((d) => this.added.get(libraryId)?.how === `upload ${d.fileName}`)
      : undefined;
    return doc ? doc.questions.map((query) => ({ libraryId, query })) : [];
  }
}
