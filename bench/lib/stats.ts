/** Figures shared by the benches: percentiles and a process's CPU and memory from /proc. */
import fs from 'node:fs';
import os from 'node:os';

/** Nearest rank: with two values p50 is the lower, p95 the higher; NaN for no values. */
export function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** CPU ticks (user + system, every thread of the process) and resident memory of a process. */
export function procStats(pid: number): { cpuTicks: number; rssBytes: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuTicks, rssBytes: Number(rss) * 1024 };
}

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node supports here. */
export const TICKS_PER_SECOND = 100;

export function loadLine(): string {
  return `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`;
}
