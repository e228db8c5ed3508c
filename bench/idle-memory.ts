/**
 * Idle memory per `/ws` connection of our server, measured precisely (not part of `pnpm bench`):
 * `node --import tsx idle-memory.ts [count] [--pull]` from bench/.
 *
 * The server runs in a child process started with --expose-gc; before and after the clients connect it runs
 * a full GC and reports process.memoryUsage(), so the figures are live memory rather than garbage V8 has not
 * returned yet (what the RSS column of the benchmark also counts). The clients (hello, optionally a pull from
 * cursor 0) live in this process, so they do not count.
 */
import { fork, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '@campus/protocol';
import { benchTempDir } from './shared/tmpfs';

type Usage = NodeJS.MemoryUsage;

async function ours(): Promise<{ port: number }> {
  const { startServer } = await import('../server/src/server');
  return startServer({ config: { port: 0, nodeEnv: 'production', logLevel: 'warn' } });
}

/** The floor for comparison: a bare `ws` server on node:http that accepts and keeps every socket. */
async function plainWs(): Promise<{ port: number }> {
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
  wss.on('connection', (socket) => socket.on('message', () => {}));
  await new Promise((resolve) => wss.on('listening', resolve));
  return { port: (wss.address() as { port: number }).port };
}

async function serve(): Promise<void> {
  const server = process.argv.includes('--plain') ? await plainWs() : await ours();
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', async (msg) => {
    if (msg !== 'measure') return;
    for (let i = 0; i < 4; i++) {
      gc?.();
      await sleep(50);
    }
    if (process.env.HEAP_SNAPSHOT_DIR) {
      const v8 = await import('node:v8');
      v8.writeHeapSnapshot(path.join(process.env.HEAP_SNAPSHOT_DIR, `${Date.now()}.heapsnapshot`));
    }
    process.send?.(process.memoryUsage());
  });
  process.send?.({ port: server.port });
}

function connect(url: string, token: string, pull: boolean, hello = true): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url}/ws`);
    if (!hello) return socket.on('open', () => resolve(socket));
    // As the app's sync client: the pull right behind the hello, not after the welcome.
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'hello', v: PROTOCOL_VERSION, token }));
      if (pull) socket.send(JSON.stringify({ type: 'pull', cursor: 0 }));
    });
    socket.on('error', reject);
    socket.on('message', (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { type: string };
      if (frame.type === 'welcome' && !pull) resolve(socket);
      else if (frame.type === 'sync_reset') resolve(socket);
    });
  });
}

async function main(): Promise<void> {
  const asked = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1000);
  const pull = process.argv.includes('--pull');
  // --no-hello: upgraded sockets that never authenticate (measure within the 10 s hello timeout).
  // --plain: a bare `ws` server instead of ours (implies --no-hello).
  const hello = !process.argv.includes('--no-hello') && !process.argv.includes('--plain');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dataDir = benchTempDir('campus-idle-');
  const env = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
  const seeded = spawnSync('node', ['--import', 'tsx', 'ours/seed.ts'], { cwd: here, env, stdio: 'inherit' });
  if (seeded.status !== 0) throw new Error('seed failed');
  const tokens = JSON.parse(readFileSync(path.join(dataDir, 'bench-tokens.json'), 'utf8')) as string[];
  // The last seeded user warms the server up; the others are the measured connections.
  const count = Math.min(asked, tokens.length - 1);

  const plain = process.argv.includes('--plain');
  const child = fork(fileURLToPath(import.meta.url), ['--serve', ...(plain ? ['--plain'] : [])], {
    cwd: here,
    env,
    execArgv: ['--expose-gc', '--import', 'tsx'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const { port } = await next<{ port: number }>();
  const url = `http://127.0.0.1:${port}`;
  const measure = async () => {
    const reply = next<Usage>();
    child.send('measure');
    return reply;
  };

  // One connection first, so module-level caches and lazily prepared statements are not counted.
  const warm = await connect(url, tokens[tokens.length - 1]!, pull, hello);
  await sleep(500);
  const before = await measure();
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = tokens.slice(i, Math.min(i + 50, count)).map((token) => connect(url, token, pull, hello));
    sockets.push(...(await Promise.all(batch)));
  }
  await sleep(3000);
  const after = await measure();
  const per = (key: keyof Usage) => ((after[key] - before[key]) / count / 1024).toFixed(2);
  console.log(
    `${count} idle connections${hello ? (pull ? ' (hello + pull)' : ' (hello only)') : ' (no hello)'}: ` +
      `heapUsed ${per('heapUsed')} KB, heapTotal ${per('heapTotal')} KB, external ${per('external')} KB, ` +
      `arrayBuffers ${per('arrayBuffers')} KB, rss ${per('rss')} KB`,
  );
  for (const socket of [warm, ...sockets]) socket.terminate();
  child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

if (process.argv.includes('--serve')) await serve();
else await main();
