/**
 * Progress of `npm run load`: a cli-progress bar on a terminal; without one (CI, a pipe, a
 * log file) a plain line at most every few seconds and at the end, so a long load shows it is
 * alive and how fast it goes, and nothing reads "0/N" at "done".
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** `done` of the total finished; `detail` names what was just done or is under way. */
  update(done: number, detail: string): void;
  /** A line that must not be lost (a failure). */
  note(line: string): void;
  stop(done: number): void;
}

export function createProgress(total: number, unit: string, options: { quiet?: boolean; stream?: NodeJS.WriteStream; intervalMs?: number } = {}): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet) return { update: () => undefined, note: () => undefined, stop: () => undefined };
  const started = Date.now();
  const rate = (done: number) => (done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1);
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: ` {bar} {value}/{total} ${unit} | {rate}/s | {detail}`, hideCursor: true, stream },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { detail: '', rate: '0.0' });
    return {
      update: (done, detail) => bar.update(done, { detail, rate: rate(done) }),
      note: (line) => stream.write(`\n${line}\n`),
      stop: (done) => {
        bar.update(done, { detail: 'done', rate: rate(done) });
        bar.stop();
      },
    };
  }
  const every = options.intervalMs ?? 5000;
  let printedAt = 0;
  const line = (done: number, detail: string) =>
    stream.write(`[load] ${done}/${total} ${unit}, ${rate(done)}/s, ${((Date.now() - started) / 1000).toFixed(0)} s: ${detail}\n`);
  return {
    update: (done, detail) => {
      if (Date.now() - printedAt < every) return;
      printedAt = Date.now();
      line(done, detail);
    },
    note: (text) => stream.write(`[load] ${text}\n`),
    stop: (done) => line(done, 'done'),
  };
}
