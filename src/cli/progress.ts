/**
 * Progress bars for long work (cli-progress), on stderr and only when stderr is a terminal
 * and the output is not JSON: a script or a pipe sees no bar, only the result.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(value: number, payload?: Record<string, string | number>): void;
  setTotal(total: number): void;
  stop(): void;
}

const SILENT: Progress = { update: () => undefined, setTotal: () => undefined, stop: () => undefined };

export function progressBar(options: { json: boolean; format: string; total: number }): Progress {
  if (options.json || !process.stderr.isTTY) return SILENT;
  const bar = new cliProgress.SingleBar(
    { format: options.format, stream: process.stderr, hideCursor: true, clearOnComplete: true, etaBuffer: 20 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(options.total, 0, {});
  return {
    update: (value, payload) => bar.update(value, payload ?? {}),
    setTotal: (total) => bar.setTotal(total),
    stop: () => bar.stop(),
  };
}

/** Bytes for people: 1.2 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
