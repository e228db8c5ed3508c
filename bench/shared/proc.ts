import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (almost always 100). */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** /proc/<pid>/stat's fields from the state on (field 3 is index 0). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time (user + system) a process has used so far, in microseconds. */
export function processCpuMicros(pid: number): number {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLK_TCK;
}

/** The pids of a process's live children (its only thread's: /proc/<pid>/task/<pid>/children). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * CPU time (µs) of a process and every child it has had: its own, the children it has reaped (cutime,
 * cstime) and the live ones'. For PostgreSQL's postmaster, whose backends come and go with the pools'
 * connections: summing only the live ones would lose a backend's time when it ends mid-phase. The
 * postmaster is read first, so a child reaped in between is counted in neither reading rather than twice.
 */
export function processTreeCpuMicros(pid: number): number {
  const fields = statFields(pid);
  const own = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  const children = cpuMicrosOf(childPids(pid));
  return (own * 1_000_000) / CLK_TCK + [...children.values()].reduce((sum, micros) => sum + micros, 0);
}

/** Resident memory of a process, in KiB. */
export function processRssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) : NaN;
}

export interface CpuTimes {
  steal: number;
  /** Jiffies that processes used (user, nice, system). */
  busy: number;
  total: number;
}

/** Whole-machine and per-core jiffies from /proc/stat, for steal over a window. */
export function readCpuTimes(): Map<string, CpuTimes> {
  const times = new Map<string, CpuTimes>();
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    if (!line.startsWith('cpu')) continue;
    const [name, ...rest] = line.trim().split(/\s+/);
    const values = rest.map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    const total = values.slice(0, 8).reduce((sum, v) => sum + v, 0);
    // Process time only (user, nice, system): the kernel's irq and softirq time, which includes the
    // loopback network work of the run itself, is not charged to any process's utime/stime.
    const busy = (values[0] ?? 0) + (values[1] ?? 0) + (values[2] ?? 0);
    times.set(name ?? '?', { steal: values[7] ?? 0, busy, total });
  }
  return times;
}

/** Steal percentage between two readings, for the whole machine ('cpu') or one core ('cpu0'). */
export function stealPercent(
  before: Map<string, CpuTimes>,
  after: Map<string, CpuTimes>,
  cpu = 'cpu',
): number {
  const a = before.get(cpu);
  const b = after.get(cpu);
  if (!a || !b || b.total === a.total) return 0;
  return (100 * (b.steal - a.steal)) / (b.total - a.total);
}

/** CPU time used on the whole machine between two readings, in microseconds. */
export function machineBusyMicros(before: Map<string, CpuTimes>, after: Map<string, CpuTimes>): number {
  const a = before.get('cpu');
  const b = after.get('cpu');
  return a && b ? ((b.busy - a.busy) * 1_000_000) / CLK_TCK : 0;
}

/** CPU time (user + system, µs) of these processes now, by pid (one that has ended is left out). */
export function cpuMicrosOf(pids: readonly number[]): Map<number, number> {
  const found = new Map<number, number>();
  for (const pid of pids) {
    try {
      found.set(pid, processCpuMicros(pid));
    } catch {
      // Ended since it was listed.
    }
  }
  return found;
}

/** CPU time (µs) the processes of two `cpuMicrosOf` readings used in between. */
export function cpuMicrosBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? micros);
  return total;
}
