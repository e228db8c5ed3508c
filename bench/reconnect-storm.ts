/**
 * A reconnect storm against our built server (by hand, not part of `pnpm bench`):
 * `node --import tsx reconnect-storm.ts` from bench/. Environment: STORM_CLIENTS (default 5,000, a multiple
 * of 20: groups of 20), STORM_RATE (group messages/s sent throughout, default 200), STORM_SECONDS (sending
 * after the storm, default 5).
 *
 * Every client signs in (hello, and a pull from cursor 0 right behind it, as the app sends them) and keeps
 * the cursor of the last change it saw. While messages flow, every socket is cut at the same instant (as a
 * restarted proxy or a network blip would) and every client reconnects at once: hello and a pull from its
 * cursor. Reported: how long until every client
 * was caught up again, the message_error frames seen (none expected: the storm must not trip the limits),
 * and every committed message (acknowledged, or seen by anyone) that some member of its group never got, or
 * got twice, live or pulled.
 *
 * As `pnpm bench` does: the server pinned to core 0 and this generator to core 1, busy loops on both, a temp
 * data directory, everything started here stopped by pid. Raw results go to results/storm-<date>.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, REALTIME_PATH } from '@campus/protocol';
import { startBusyLoops, startPinned, stopProcesses, waitForExit } from './run/processes';
import { benchDir, buildOurServer, generatorNode, startTargetServer, TARGETS } from './run/targets';
import { GROUP_SIZE, groupIdOf, MESSAGE_CONTENT, seededRandom } from './shared/population';
import { processCpuMicros, processRssKb, readCpuTimes, stealPercent } from './shared/proc';
import { benchTempDir } from './shared/tmpfs';

const clientCount = Number(process.env.STORM_CLIENTS ?? 5000);
const rate = Number(process.env.STORM_RATE ?? 200);
const secondsAfter = Number(process.env.STORM_SECONDS ?? 5);
const CONNECT_CONCURRENCY = 50;
const READY_TIMEOUT_MS = 60_000;

interface StormConfig {
  url: string;
  serverPid: number;
  tokensFile: string;
  out: string;
}

interface StormResult {
  clients: number;
  rate: number;
  firstConnectMs: number;
  stormMs: number;
  /** Clients that were not caught up within READY_TIMEOUT_MS of the cut. */
  notReady: number;
  /** Reconnects answered with a snapshot (sync_reset) rather than the changes after their cursor. */
  resets: number;
  serverCpuMsDuringStorm: number;
  rssKbBefore: number;
  rssKbAfter: number;
  stealPercent: number;
  errors: Record<string, number>;
  committed: number;
  lost: number;
  duplicates: number;
  closes: Record<string, number>;
}

// ---- the generator (its own process, pinned to core 1)

interface ChangeFrame {
  type: string;
  seq?: number;
  mid?: number;
  message?: { id: string };
  changes?: ChangeFrame[];
  cursor?: number;
  hasMore?: boolean;
  code?: string;
}

class StormClient {
  socket: WebSocket | undefined;
  cursor = 0;
  ready = false;
  /** sync_reset frames received (one per client is the first sign-in's). */
  resets = 0;
  readonly seen = new Map<string, number>();
  private onReady: (() => void) | undefined;

  constructor(
    readonly index: number,
    private readonly url: string,
    private readonly token: string,
    private readonly events: {
      onAck(mid: number): void;
      onError(code: string): void;
      onClose(code: number): void;
    },
  ) {}

  /** hello, then a pull from the cursor; resolves once caught up (sync_reset, or the last changes page). */
  connect(): Promise<void> {
    this.ready = false;
    const ready = new Promise<void>((resolve) => (this.onReady = resolve));
    const socket = new WebSocket(this.url, { perMessageDeflate: false });
    this.socket = socket;
    // As the app's sync client: the pull from its cursor right behind the hello, not after the welcome.
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'hello', v: PROTOCOL_VERSION, token: this.token }));
      socket.send(JSON.stringify({ type: 'pull', cursor: this.cursor }));
    });
    socket.on('message', (data) => this.onFrame(JSON.parse(String(data)) as ChangeFrame));
    socket.on('close', (code) => {
      if (this.socket === socket) this.events.onClose(code);
    });
    socket.on('error', () => undefined);
    return ready;
  }

  cut(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.ready = false;
    socket?.terminate();
  }

  send(frame: Record<string, unknown>): boolean {
    if (!this.ready || this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private onFrame(frame: ChangeFrame): void {
    switch (frame.type) {
      case 'sync_reset':
        this.resets++;
        this.cursor = frame.cursor ?? 0;
        return this.caughtUp();
      case 'changes':
        for (const change of frame.changes ?? []) this.onChange(change);
        if (frame.cursor !== undefined) this.cursor = Math.max(this.cursor, frame.cursor);
        if (frame.hasMore === false) this.caughtUp();
        return;
      case 'ack':
        if (frame.mid !== undefined) this.events.onAck(frame.mid);
        return;
      case 'message_error':
        this.events.onError(frame.code ?? 'unknown');
        return;
      default:
        if (frame.seq !== undefined) this.onChange(frame);
    }
  }

  private onChange(change: ChangeFrame): void {
    if (change.seq !== undefined) this.cursor = Math.max(this.cursor, change.seq);
    if (change.type === 'receive_group_message' && change.message)
      this.seen.set(change.message.id, (this.seen.get(change.message.id) ?? 0) + 1);
  }

  private caughtUp(): void {
    this.ready = true;
    this.onReady?.();
  }
}

async function generate(config: StormConfig): Promise<void> {
  const tokens = JSON.parse(readFileSync(config.tokensFile, 'utf8')) as string[];
  const errors: Record<string, number> = {};
  const closes: Record<string, number> = {};
  const acked = new Set<string>();
  const senderOfMid = new Map<number, string>();
  const groupOfId = new Map<string, string>();
  const url = config.url.replace(/^http/, 'ws') + REALTIME_PATH;
  const clients = Array.from(
    { length: clientCount },
    (_, i) =>
      new StormClient(i, url, tokens[i]!, {
        onAck: (mid) => {
          const id = senderOfMid.get(mid);
          if (id) acked.add(id);
        },
        onError: (code) => void (errors[code] = (errors[code] ?? 0) + 1),
        onClose: (code) => void (closes[code] = (closes[code] ?? 0) + 1),
      }),
  );

  const connectStart = performance.now();
  for (let first = 0; first < clientCount; first += CONNECT_CONCURRENCY)
    await Promise.all(clients.slice(first, first + CONNECT_CONCURRENCY).map((c) => c.connect()));
  const firstConnectMs = performance.now() - connectStart;
  process.stderr.write(`  ${clientCount} clients connected in ${Math.round(firstConnectMs)} ms\n`);
  // One message in every group first, so each client holds a cursor past its sync_reset's (a device in use
  // has one): the reconnects then pull what they missed instead of starting over with a snapshot.
  let mid = 0;
  for (let first = 0; first < clientCount; first += GROUP_SIZE) {
    const id = randomUUID();
    senderOfMid.set(++mid, id);
    groupOfId.set(id, groupIdOf(first));
    const client = clients[first]!;
    client.send({
      type: 'send_group_message',
      deviceId: `storm-device-${client.index}`,
      mid,
      id,
      groupId: groupIdOf(first),
      content: MESSAGE_CONTENT,
    });
    if (mid % 50 === 0) await sleep(100);
  }
  await sleep(2000);

  // Messages flow from random connected members from now until the end.
  const random = seededRandom(20261127);
  let sending = true;
  const sender = (async () => {
    const interval = 1000 / rate;
    let next = performance.now();
    while (sending) {
      next += interval;
      const client = clients[Math.floor(random() * clientCount)]!;
      // Message ids are UUIDs (the schema checks them).
      const id = randomUUID();
      mid++;
      senderOfMid.set(mid, id);
      groupOfId.set(id, groupIdOf(client.index));
      client.send({
        type: 'send_group_message',
        deviceId: `storm-device-${client.index}`,
        mid,
        id,
        groupId: groupIdOf(client.index),
        content: MESSAGE_CONTENT,
      });
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  await sleep(1000);

  // The storm: every socket cut at once, every client back at once.
  const rssKbBefore = processRssKb(config.serverPid);
  const cpuBefore = processCpuMicros(config.serverPid);
  const statBefore = readCpuTimes();
  const cutAt = performance.now();
  for (const client of clients) client.cut();
  const reconnects = clients.map((client) => client.connect());
  const all = Promise.all(reconnects).then(() => performance.now() - cutAt);
  const stormMs = await Promise.race([all, sleep(READY_TIMEOUT_MS).then(() => Number.NaN)]);
  const serverCpuMsDuringStorm = (processCpuMicros(config.serverPid) - cpuBefore) / 1000;
  const steal = stealPercent(statBefore, readCpuTimes());
  const rssKbAfter = processRssKb(config.serverPid);
  process.stderr.write(`  ${clientCount} clients reconnected and caught up in ${Math.round(stormMs)} ms\n`);

  await sleep(secondsAfter * 1000);
  sending = false;
  await sender;
  await sleep(2000);

  // Every message someone saw or that was acknowledged is committed: all its group's members must have it.
  const committed = new Set<string>(acked);
  for (const client of clients) for (const id of client.seen.keys()) committed.add(id);
  let lost = 0;
  let duplicates = 0;
  for (const client of clients) {
    const group = groupIdOf(client.index);
    for (const n of client.seen.values()) if (n > 1) duplicates += n - 1;
    for (const id of committed) if (groupOfId.get(id) === group && !client.seen.has(id)) lost++;
  }
  const result: StormResult = {
    clients: clientCount,
    rate,
    firstConnectMs,
    stormMs,
    notReady: clients.filter((c) => !c.ready).length,
    resets: clients.reduce((sum, c) => sum + c.resets, 0) - clientCount,
    serverCpuMsDuringStorm,
    rssKbBefore,
    rssKbAfter,
    stealPercent: steal,
    errors,
    committed: committed.size,
    lost,
    duplicates,
    closes,
  };
  for (const client of clients) client.cut();
  writeFileSync(config.out, JSON.stringify(result, null, 2));
  process.exit(0);
}

// ---- the runner

async function run(): Promise<void> {
  if (clientCount % GROUP_SIZE !== 0) throw new Error(`STORM_CLIENTS must be a multiple of ${GROUP_SIZE}`);
  buildOurServer();
  const busy = startBusyLoops();
  const started: ChildProcess[] = [];
  const dataDir = benchTempDir('campus-storm-');
  try {
    process.env.BENCH_CLIENT_COUNT = String(clientCount);
    const spec = TARGETS.ours;
    const tokensFile = spec.prepare!(dataDir);
    const { server, port } = await startTargetServer(spec, dataDir, started);
    const out = path.join(dataDir, 'storm-result.json');
    const config: StormConfig = { url: `http://127.0.0.1:${port}`, serverPid: server.pid!, tokensFile, out };
    const generator = startPinned(1, [...generatorNode(), 'reconnect-storm.ts', '--generate'], {
      cwd: benchDir,
      env: { ...process.env, STORM_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    started.push(generator);
    if ((await waitForExit(generator)) !== 0) throw new Error('the storm generator failed');
    const result = JSON.parse(readFileSync(out, 'utf8')) as StormResult;
    const date = new Date().toISOString().slice(0, 16).replace(':', '-');
    mkdirSync(path.join(benchDir, 'results'), { recursive: true });
    const file = path.join(benchDir, 'results', `storm-${date}.json`);
    writeFileSync(file, JSON.stringify({ date, machine: os.cpus()[0]?.model, result }, null, 2) + '\n');
    console.log(JSON.stringify(result, null, 2));
    console.log(`raw results: ${path.relative(process.cwd(), file)}`);
  } finally {
    await stopProcesses([...started.reverse(), ...busy]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--generate'))
  await generate(JSON.parse(process.env.STORM_CONFIG ?? '{}') as StormConfig);
else await run();
