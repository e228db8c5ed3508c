import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type StartOptions } from '../../src/server';

/** A controllable clock: starts at real time, moves only when told. */
export function testClock() {
  let now = Date.now();
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export interface TestResponse {
  status: number;
  body: Record<string, unknown>;
  headers: globalThis.Headers;
}

/** Starts the real server on an ephemeral port with a fresh SQLite database in a temp folder. */
export async function startTestServer(options: StartOptions = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-test-'));
  const running = await startServer({
    ...options,
    config: {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      nodeEnv: 'test',
      logLevel: 'silent',
      webDist: path.join(dataDir, 'no-web-build'),
      ...options.config,
    },
  });

  async function call(
    method: string,
    pathname: string,
    body?: unknown,
    token?: string,
  ): Promise<TestResponse> {
    const res = await fetch(running.url + pathname, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = { text };
    }
    return { status: res.status, body: json, headers: res.headers };
  }

  return {
    ...running,
    dataDir,
    call,
    post: (p: string, body?: unknown, token?: string) => call('POST', p, body ?? {}, token),
    get: (p: string, token?: string) => call('GET', p, undefined, token),
    async close() {
      await running.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
