import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A server node running main.ts in a process of its own. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What it printed, for a failing test's message. */
  output(): string;
  /** SIGTERM (drain, stop), then SIGKILL if it has not exited within `ms`. */
  stop(ms?: number): Promise<void>;
}

/**
 * Starts main.ts (through tsx, as `pnpm dev` does) with `env` on an ephemeral port and resolves once it
 * listens. A node in its own process has its own module globals: @y/websocket-server keeps one document map
 * per process, so two nodes in one process would share their notes documents and hide what crosses nodes.
 */
export function startServerProcess(env: Record<string, string>, timeoutMs = 40_000): Promise<ServerProcess> {
  const child = spawn(path.join(serverDir, 'node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      SMTP_URL: '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DRAIN_TIMEOUT_MS: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (ms = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server process did not start:\n${out}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /"url":"(http:\/\/[^"]+)".*Campus Talk is listening/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, child, output: () => out, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server process exited (${code}):\n${out}`));
    });
  });
}
