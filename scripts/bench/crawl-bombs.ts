/**
 * `npx tsx scripts/bench/crawl-bombs.ts [--root DIR] [--limit-seconds 240] [--only links,delay,sitemaps]`
 *
 * The crawl bombs of the red-team report (issue 32) against local sites, on a server process
 * of their own (private stores, dropped at the end), one at a time:
 *   links     a page of 1,000 links, added with maxPages 1;
 *   delay     the same behind a robots.txt `Crawl-delay: 100`;
 *   sitemaps  robots.txt names 50 sitemaps of ~5 MB each (4.25 M URLs), maxPages 1.
 * For each: the job's time, the peak RSS of the server process and of its job processes,
 * and /livez latency asked every 20 ms (max, p99). While the sitemap bomb runs, another team
 * adds a Git repository and an llms-full.txt: how long each takes. A bomb still running
 * after --limit-seconds is cancelled (the time until the cancel took, and whether the site
 * still got requests after it, are reported). `--root` runs another checkout's server — the
 * code before a fix, as a baseline measured in the same run and on the same machine.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ROOT_DIR } from '../../src/config';
import { startServer } from './harness/server';
import { createAdminAccess, dropPrivateStores, openPrivateStores, soakName } from './soak/stores';
import { createRepo, startGitServer } from '../../test/git-server';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT_DIR },
    'limit-seconds': { type: 'string', default: '240' },
    only: { type: 'string', default: 'links,delay,sitemaps' },
  },
});
const LIMIT_MS = Number(values['limit-seconds']) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Site {
  origin: string;
  requests: number;
  close(): Promise<void>;
}

/** A loopback site: `routes` answers a path (HTML by default), everything else 404. */
async function site(routes: (p: string, origin: string) => { type?: string; body: string } | undefined): Promise<Site> {
  const s: Site = { origin: '', requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    s.requests++;
    const found = routes(new URL(req.url ?? '/', 'http://x').pathname, s.origin);
    if (!found) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': found.type ?? 'text/html; charset=utf-8' }).end(found.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return s;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const thousandLinks = page(
  'Links',
  `<p>Every page of this site.</p>${Array.from({ length: 1000 }, (_, i) => `<a href="/p${i}.html">page ${i}</a>`).join(' ')}`,
);
const linksSite = () => site((p) => (p === '/' ? { body: thousandLinks } : /^\/p\d+\.html$/.test(p) ? { body: homePage } : undefined));
const delaySite = () =>
  site((p) => (p === '/robots.txt' ? { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 100\n' } : p === '/' ? { body: thousandLinks } : undefined));
/** 80,000 URLs a sitemap: just under 5 MB of XML (WEB_MAX_PAGE_BYTES is 5 MiB); 50 of them are 4 M URLs. */
const sitemap = (origin: string, n: number) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 80_000 }, (_, i) => `<url><loc>${origin}/s${n}/page-${i}.html</loc></url>`).join('')}</urlset>`;
const homePage = page(
  'Widgets',
  '<h2>Spinning a widget</h2><p>Call <code>widget.spin()</code> with a rate to spin a widget; it stops when the rate is zero.</p><pre><code class="language-js">widget.spin({ rate: 3 });</code></pre>',
);
const sitemapSite = () =>
  site((p, origin) => {
    if (p === '/robots.txt')
      return { type: 'text/plain', body: ['User-agent: *', ...Array.from({ length: 50 }, (_, n) => `Sitemap: ${origin}/sitemap-${n}.xml`)].join('\n') };
    if (p === '/') return { body: homePage };
    const m = /^\/sitemap-(\d+)\.xml$/.exec(p);
    return m ? { type: 'application/xml', body: sitemap(origin, Number(m[1])) } : undefined;
  });

/** Peak RSS (MB) of a process and, separately, of its descendants, sampled until stopped. */
function rssSampler(pid: number): { stop(): { server: number; jobs: number } } {
  const rss = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const children = (p: number): number[] => {
    try {
      const kids = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      return kids.flatMap((k) => [k, ...children(k)]);
    } catch {
      return [];
    }
  };
  const peak = { server: 0, jobs: 0 };
  const timer = setInterval(() => {
    try {
      peak.server = Math.max(peak.server, rss(pid));
      peak.jobs = Math.max(
        peak.jobs,
        children(pid).reduce((n, k) => n + (fs.existsSync(`/proc/${k}`) ? rss(k) : 0), 0),
      );
    } catch {
      // a process that just ended
    }
  }, 250);
  return { stop: () => (clearInterval(timer), { server: Math.round(peak.server), jobs: Math.round(peak.jobs) }) };
}

/** CPU time (ms) a process has used so far (utime + stime from /proc; 0 once it is gone). */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/** /livez asked every 20 ms until stopped: worst and p99 latency (ms). */
function livezSampler(url: string): { stop(): Promise<{ max: number; p99: number; n: number }> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/livez`).then(
        (r) => r.text(),
        () => '',
      );
      times.push(performance.now() - started);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      return { max: Math.round(sorted.at(-1) ?? 0), p99: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0), n: times.length };
    },
  };
}

async function main(): Promise<void> {
  const name = soakName(new Date()).replace('soak', 'bombs');
  const stores = await openPrivateStores(name);
  const git = await startGitServer();
  const sites: Site[] = [];
  let stop: (() => Promise<void>) | undefined;
  try {
    const admin = await createAdminAccess(stores.services);
    const { services } = stores;
    const member = await services.accounts.createUser({ username: 'team-b-dev', password: 'team-b-password', role: 'member' });
    await services.accounts.createTeam({ name: 'team B', plan: 'pro', ownerId: member._id });
    const teamB = (await services.keys.create(member._id, 'team B')).value;
    createRepo(git.root, 'teamb/widgets', [
      {
        files: {
          'README.md': '# Widgets\n\nWidgets turn.\n',
          'docs/start.md': '# Start\n\n## Install\n\nInstall widgets with npm before anything else.\n\n```bash\nnpm install widgets\n```\n',
        },
      },
    ]);
    const small = await site((p) =>
      p === '/llms-full.txt'
        ? { type: 'text/plain', body: '# Gadgets\n\n## Using gadgets\n\nCall `gadget.spin()` to spin a gadget at its rate.\n' }
        : undefined,
    );
    sites.push(small);

    const server = await startServer(values.root, {
      extraEnv: {
        ...stores.env,
        LOG_LEVEL: 'warn',
        WORKER_MODE: 'in-process',
        WEB_ALLOWED_HOSTS: '127.0.0.1',
        GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
        ADD_WAIT_SECONDS: '0',
        RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
        SHELFMARK_EMBEDDINGS: 'off',
        SHELFMARK_DEMO_LIBRARY: 'off',
      },
    });
    stop = server.stop;
    const call = async (key: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(`${server.url}${p}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    };
    const jobOf = (answer: { body: Record<string, unknown> }) => /GET \/v2\/jobs\/(\S+?)\./.exec(String(answer.body.message))?.[1] ?? '';
    const waitJob = async (id: string, limitMs: number) => {
      const until = Date.now() + limitMs;
      for (;;) {
        const job = await call(admin.key, 'GET', `/v2/jobs/${id}`);
        if (['finalized', 'failed', 'cancelled'].includes(String(job.body.state)) || Date.now() > until) return job.body;
        await sleep(250);
      }
    };

    console.log(
      `server ${values.root} (pid ${server.pid}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    // The machine's own noise: /livez with nothing running, for 10 s.
    const idle = livezSampler(server.url);
    await sleep(10_000);
    const floor = await idle.stop();
    console.log(`idle      /livez max ${floor.max} ms, p99 ${floor.p99} ms (${floor.n} asked): the noise floor of this machine now`);
    const makers: Record<string, () => Promise<Site>> = { links: linksSite, delay: delaySite, sitemaps: sitemapSite };
    for (const bomb of values.only.split(',')) {
      const target = await makers[bomb]();
      sites.push(target);
      const rss = rssSampler(server.pid);
      const livez = livezSampler(server.url);
      const ownLag = monitorEventLoopDelay({ resolution: 10 });
      ownLag.enable();
      const serverCpu = cpuMs(server.pid);
      const started = Date.now();
      const add = await call(admin.key, 'POST', '/v2/add/website', { url: `${target.origin}/`, maxPages: 1, scope: 'hostname' });
      const id = jobOf(add);
      let others = '';
      if (bomb === 'sitemaps') {
        await sleep(2000);
        const t0 = Date.now();
        const [repo, llms] = await Promise.all([
          call(teamB, 'POST', '/v2/add/repo/git', { docsRepoUrl: `${git.url}/teamb/widgets.git`, private: true }).then(async (r) => ({
            r,
            job: await waitJob(jobOf(r), LIMIT_MS),
          })),
          call(teamB, 'POST', '/v2/add/llmstxt', { url: `${small.origin}/llms-full.txt`, private: true }).then(async (r) => ({
            r,
            job: await waitJob(jobOf(r), LIMIT_MS),
          })),
        ]);
        others = `; team B's Git add ${repo.job.state} in ${((Date.parse(String(repo.job.finishedAt)) - t0) / 1000 || NaN).toFixed(1)} s, llms-full.txt add ${llms.job.state} in ${((Date.parse(String(llms.job.finishedAt)) - t0) / 1000 || NaN).toFixed(1)} s`;
      }
      let job = await waitJob(id, Math.max(0, LIMIT_MS - (Date.now() - started)));
      let outcome = String(job.state);
      if (!['finalized', 'failed', 'cancelled'].includes(outcome)) {
        const cancelledAt = Date.now();
        const cancel = await call(admin.key, 'DELETE', `/v2/jobs/${id}`);
        job = await waitJob(id, 60_000);
        const afterCancel = target.requests;
        await sleep(5000);
        outcome = `still running after ${LIMIT_MS / 1000} s: cancel answered ${cancel.status}, job ${String(job.state)} ${((Date.now() - 5000 - cancelledAt) / 1000).toFixed(1)} s later; ${target.requests - afterCancel} requests to the site in the 5 s after`;
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const peaks = rss.stop();
      const l = await livez.stop();
      ownLag.disable();
      const usedCpu = Math.round(cpuMs(server.pid) - serverCpu);
      console.log(
        `${bomb.padEnd(9)} ${outcome} · ${seconds} s · ${target.requests} requests to the site · RSS peak server ${peaks.server} MB, job processes ${peaks.jobs} MB · server CPU ${usedCpu} ms · /livez max ${l.max} ms, p99 ${l.p99} ms (${l.n} asked; this script's own event-loop delay max ${Math.round(ownLag.max / 1e6)} ms)${others}`,
      );
    }
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await stop?.();
    await Promise.all(sites.map((s) => s.close()));
    await git.close();
    await dropPrivateStores(stores);
    fs.rmSync(path.join(ROOT_DIR, '.soak', name), { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
