import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A real TURN server (Debian's coturn) on loopback for the end-to-end calls, with `use-auth-secret`: the
 * TURN REST credential scheme the app's server implements in GET /api/rtc/config. The app's server is
 * started with TURN_URLS/TURN_SECRET pointing here only when coturn is installed (scripts/bootstrap.sh
 * installs it; without it the relay test fails and says how to install it).
 */
export const TURN_PORT = 34780;
export const TURN_SECRET = 'e2e-turn-secret-not-for-production';
export const TURN_URL = `turn:127.0.0.1:${TURN_PORT}?transport=udp`;

export function turnServerPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v turnserver'], { encoding: 'utf8' });
  const bin = found.stdout.trim();
  return found.status === 0 && bin ? bin : null;
}

/** Starts coturn on 127.0.0.1 (relaying between loopback peers, which a real deployment must refuse). */
export async function startTurnServer(dir: string): Promise<ChildProcess | null> {
  const bin = turnServerPath();
  if (!bin) return null;
  fs.mkdirSync(dir, { recursive: true });
  const log = fs.openSync(path.join(dir, 'turnserver.log'), 'w');
  const child = spawn(
    bin,
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${TURN_PORT}`,
      '--min-port=49152',
      '--max-port=49400',
      '--use-auth-secret',
      `--static-auth-secret=${TURN_SECRET}`,
      '--realm=campus.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--fingerprint',
      `--pidfile=${path.join(dir, 'turnserver.pid')}`,
      `--userdb=${path.join(dir, 'turndb')}`,
      '--log-file=stdout',
      '--simple-log',
    ],
    { stdio: ['ignore', log, log] },
  );
  // Ready once it listens; coturn says so in its log.
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) throw new Error(`turnserver exited with ${child.exitCode}`);
    if (fs.readFileSync(path.join(dir, 'turnserver.log'), 'utf8').includes('Total General servers')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}
