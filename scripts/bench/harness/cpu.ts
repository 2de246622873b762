/**
 * CPU time per request, per process: the server, Elasticsearch, FerretDB/MongoDB and the
 * benchmark client itself, read from /proc/<pid>/stat (utime + stime) before and after
 * each run. On a 2-core machine they all compete for the same cores, so this shows where a
 * request's cost goes (the server's own work against Elasticsearch's) independently of
 * queueing. Processes that cannot be found are left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

export type CpuProcess = 'server' | 'elasticsearch' | 'mongodb' | 'bench';

/** utime + stime (clock ticks) from the text of /proc/<pid>/stat; undefined when malformed. */
export function parseProcStat(text: string): number | undefined {
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const end = text.lastIndexOf(')');
  if (end < 0) return undefined;
  const fields = text.slice(end + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : undefined;
}

function ticksOf(pid: number): number | undefined {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && fs.existsSync(`/proc/${pid}`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The local stores' processes as scripts/stores/services.sh records them (`<dataDir>/run`): the
 * Elasticsearch whose URL file matches `elasticsearchUrl`, and FerretDB.
 */
export function storePids(dataDir: string, elasticsearchUrl: string): Partial<Record<CpuProcess, number>> {
  const run = path.join(dataDir, 'run');
  const out: Partial<Record<CpuProcess, number>> = {};
  let files: string[] = [];
  try {
    files = fs.readdirSync(run);
  } catch {
    return out;
  }
  const origin = new URL(elasticsearchUrl).origin;
  for (const f of files.filter((n) => /^es-.+\.url$/.test(n))) {
    try {
      if (new URL(fs.readFileSync(path.join(run, f), 'utf8').trim()).origin !== origin) continue;
    } catch {
      continue;
    }
    const pid = readPid(path.join(run, f.replace(/\.url$/, '.pid')));
    if (pid) out.elasticsearch = pid;
  }
  const ferret = readPid(path.join(run, 'ferretdb.pid'));
  if (ferret) out.mongodb = ferret;
  return out;
}

export class CpuMeter {
  private readonly hz = clockTicksPerSecond();
  constructor(readonly pids: Partial<Record<CpuProcess, number>>) {}

  /** Starts counting; the returned function gives CPU milliseconds per request since then. */
  start(): (requests: number) => Partial<Record<CpuProcess, number>> {
    const before = this.read();
    return (requests) => {
      const after = this.read();
      const out: Partial<Record<CpuProcess, number>> = {};
      for (const [name, ticks] of Object.entries(after) as Array<[CpuProcess, number]>) {
        const start = before[name];
        if (start === undefined || requests <= 0) continue;
        out[name] = Math.round((((ticks - start) * 1000) / this.hz / requests) * 100) / 100;
      }
      return out;
    };
  }

  private read(): Partial<Record<CpuProcess, number>> {
    const out: Partial<Record<CpuProcess, number>> = {};
    for (const [name, pid] of Object.entries(this.pids) as Array<[CpuProcess, number]>) {
      const ticks = ticksOf(pid);
      if (ticks !== undefined) out[name] = ticks;
    }
    return out;
  }
}
