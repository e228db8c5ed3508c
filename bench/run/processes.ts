import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `command` in a session of its own whose autogroup gets `nice`. The kernel weighs sessions
 * (autogroups) against each other before it looks at a task's own nice or policy, and this machine is
 * shared with other sessions' builds and test runs. The shell sets the nice from inside the new session,
 * then execs (as do nice, taskset and chrt), so the pid is the command's own. Setting it fails quietly
 * when not root; the table's "other load" column then tells how much the run was disturbed.
 */
function spawnInOwnSession(nice: number, command: readonly string[], options: SpawnOptions): ChildProcess {
  const script = `echo ${nice} > /proc/$$/autogroup 2>/dev/null; exec nice -n ${nice} "$@"`;
  return spawn('setsid', ['sh', '-c', script, 'sh', ...command], options);
}

/**
 * Lowest-priority busy loops, one pinned to each core: an idle core of these VMs pays a wake-up delay
 * the kernel counts as steal (p99 swinging from 3 to 50 ms), and a spinning SCHED_IDLE task in the
 * lowest-weight session keeps the core awake while giving way to any real work at once.
 */
export function startBusyLoops(): ChildProcess[] {
  return os
    .cpus()
    .map((_, core) =>
      spawnInOwnSession(
        19,
        ['taskset', '-c', String(core), 'chrt', '--idle', '0', 'sh', '-c', 'while :; do :; done'],
        { stdio: 'ignore' },
      ),
    );
}

/** Starts a measured process (server or generator) pinned to one core, in the highest-priority session. */
export function startPinned(core: number, command: readonly string[], options: SpawnOptions): ChildProcess {
  return spawnInOwnSession(-20, ['taskset', '-c', String(core), ...command], options);
}

/** Starts a process of the system under test that is not pinned (Redis), in the highest-priority session. */
export function startRaised(command: readonly string[], options: SpawnOptions): ChildProcess {
  return spawnInOwnSession(-20, command, options);
}

/**
 * Gives a process that runs as another user, or made a session of its own (each PostgreSQL backend calls
 * setsid), the measured processes' priority: its session's nice and its own. Fails quietly when not root.
 */
export function raisePriority(pid: number): void {
  try {
    if (sessionNice(pid) !== -20) writeFileSync(`/proc/${pid}/autogroup`, '-20');
    if (os.getPriority(pid) !== -20) os.setPriority(pid, -20);
  } catch {
    // Not root, or the process has ended: the "other load" column tells how much the run was disturbed.
  }
}

/** The nice of a process's session as the kernel reports it (for the results), or null. */
export function sessionNice(pid: number | undefined): number | null {
  try {
    const match = / nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Stops processes this run started, by their own pid (taskset and chrt exec, so the pid is the loop's):
 * `signal`, then SIGKILL after `graceMs`. PostgreSQL's postmaster takes SIGINT (fast shutdown: SIGTERM
 * would wait for every client to leave).
 */
export async function stopProcesses(
  children: readonly ChildProcess[],
  graceMs = 5000,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill(signal);
      const timeout = sleep(graceMs).then(() => 'timeout' as const);
      if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
    }),
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port (or throws after `timeoutMs`). */
export async function waitForPort(port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before listening`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}

export function waitForExit(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}
