/**
 * CPU time of a piece of work, for the complexity guards in unit tests. Wall-clock time
 * measures the machine's load as much as the code (ava runs test files in parallel on two
 * cores), so a guard against super-linear behaviour reads the process's CPU time instead:
 * it barely moves under load, yet a quadratic regression still blows far past the bound.
 * Async work is measured the same way, so a timed async test must be `test.serial` (no other
 * test of its file running on the same process meanwhile).
 */
export function cpuMs<T>(work: () => T): { value: T; ms: number } {
  const before = process.cpuUsage();
  const value = work();
  return { value, ms: elapsedMs(before) };
}

export async function cpuMsAsync<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const before = process.cpuUsage();
  const value = await work();
  return { value, ms: elapsedMs(before) };
}

function elapsedMs(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
