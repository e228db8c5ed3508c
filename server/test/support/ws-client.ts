import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, type DocumentStatus } from '@campus/protocol';
import { createSession } from '../../src/lib/auth/sessions';
import { insertUser } from '../../src/modules/users/repo';
import type { TestServer } from './test-server';

export type Frame = { type: string } & Record<string, unknown>;

/** A student with a real account and session. */
export interface TestUser {
  id: string;
  token: string;
  name: string;
}

/** A student account with a session; verified unless told otherwise (the access policy lets it take part). */
export async function createUser(
  server: TestServer,
  name: string,
  documentStatus: DocumentStatus = 'verified',
): Promise<TestUser & { email: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@uni.test`;
  const row = await insertUser(
    server.deps.db,
    {
      email,
      passwordHash: 'unused',
      firstName: name,
      lastName: 'Student',
      phoneNumber: '0000000000',
      role: 'user',
      documentStatus,
    },
    Date.now(),
  );
  const { token } = await createSession(server.deps.db, row.id, Date.now());
  return { id: row.id, token, name, email };
}

/** A real `ws` client on /ws that records every frame and can wait for one. */
export class WsClient {
  readonly frames: Frame[] = [];
  closeCode: number | undefined;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private closeWaiters: ((code: number) => void)[] = [];
  readonly deviceId = `dev-${randomUUID()}`;
  private mid = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      for (const resolve of this.closeWaiters) resolve(code);
    });
  }

  static async open(server: TestServer): Promise<WsClient> {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    const client = new WsClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  /** Opens, says hello and waits for welcome; with `pull`, also pulls from `cursor` and waits for the last page. */
  static async connect(server: TestServer, user: TestUser, options: { pull?: number | false } = {}) {
    const client = await WsClient.open(server);
    client.send({ type: 'hello', v: PROTOCOL_VERSION, token: user.token });
    await client.waitFor((f) => f.type === 'welcome');
    if (options.pull !== false) await client.pull(options.pull ?? 0);
    return client;
  }

  async pull(cursor: number): Promise<Frame> {
    const from = this.frames.length;
    this.send({ type: 'pull', cursor });
    return this.waitFor(
      (f) => (f.type === 'changes' && f.hasMore === false) || f.type === 'sync_reset',
      from,
    );
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Sends a mutation with this device's next mid; returns the mid. */
  mutate(frame: Record<string, unknown>, mid = ++this.mid): number {
    this.send({ ...frame, deviceId: this.deviceId, mid });
    return mid;
  }

  /** The first frame (from index `from`) matching, already received or still to come. */
  waitFor(match: (f: Frame) => boolean, from = 0, timeoutMs = 5000): Promise<Frame> {
    const seen = this.frames.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    // Made here, so a timeout's stack names the test line that waited, not this timer.
    const timedOut = new Error('timed out waiting for a frame');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(timedOut), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  of(type: string): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }

  waitClose(timeoutMs = 5000): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for close')), timeoutMs);
      this.closeWaiters.push((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** Resolves after a short quiet period, to assert that something did NOT arrive. */
  static settle(ms = 150): Promise<void> {
    return new Promise((r) => setTimeout(r, ms));
  }

  close(): void {
    this.ws.close();
  }

  /** Drops the TCP connection without a close handshake (a lost network). */
  kill(): void {
    this.ws.terminate();
  }
}
