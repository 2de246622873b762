/**
 * Memory of the server process, sampled from /proc/<pid>/status: VmRSS (resident now) and
 * VmHWM (the kernel's own peak-resident mark, which also catches spikes between samples).
 */
import fs from 'node:fs';

export interface ProcMemory {
  rssKb: number;
  hwmKb: number;
}

/** Reads VmRSS and VmHWM (kB) from the text of /proc/<pid>/status; undefined when absent. */
export function parseProcStatus(text: string): ProcMemory | undefined {
  const field = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const rssKb = field('VmRSS');
  const hwmKb = field('VmHWM');
  return rssKb === undefined || hwmKb === undefined ? undefined : { rssKb, hwmKb };
}

export function readProcMemory(pid: number): ProcMemory | undefined {
  try {
    return parseProcStatus(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

export interface RssReport {
  pid: number;
  samples: number;
  /** RSS when sampling started, before any load. */
  startRssMb: number;
  /** Highest VmRSS seen in a sample. */
  peakSampledRssMb: number;
  /** VmHWM at the last sample: the process's peak RSS over its whole life. */
  peakRssMb: number;
}

/** Samples a process every `intervalMs` until stopped. */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private samples = 0;
  private first: ProcMemory | undefined;
  private peakRss = 0;
  private lastHwm = 0;

  constructor(
    readonly pid: number,
    private readonly intervalMs = 200,
  ) {}

  /** False when /proc has no such process (not Linux, or another machine's server). */
  start(): boolean {
    if (!this.sample()) return false;
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
    return true;
  }

  private sample(): boolean {
    const m = readProcMemory(this.pid);
    if (!m) return false;
    this.samples++;
    this.first ??= m;
    this.peakRss = Math.max(this.peakRss, m.rssKb);
    this.lastHwm = Math.max(this.lastHwm, m.hwmKb);
    return true;
  }

  stop(): RssReport | undefined {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    if (!this.first) return undefined;
    const mb = (kb: number) => Math.round(kb / 102.4) / 10;
    return { pid: this.pid, samples: this.samples, startRssMb: mb(this.first.rssKb), peakSampledRssMb: mb(this.peakRss), peakRssMb: mb(this.lastHwm) };
  }
}
