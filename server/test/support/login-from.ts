import http from 'node:http';
import type { TestServer } from './test-server';

export interface LoginAnswer {
  status: number;
  /** performance.now() when the request was sent and when the answer had arrived. */
  startedAt: number;
  doneAt: number;
  body: unknown;
  retryAfter: string | undefined;
}

/**
 * POST /api/auth/login from a chosen loopback address: the server reads the TCP peer (lib/client-ip.ts,
 * forwarded headers are ignored), and all of 127.0.0.0/8 reaches a listener on 127.0.0.1.
 */
export function loginFrom(
  server: TestServer,
  ip: string,
  email: string,
  password: string,
): Promise<LoginAnswer> {
  const body = JSON.stringify({ email, password });
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/auth/login',
        method: 'POST',
        localAddress: ip,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            startedAt,
            doneAt: performance.now(),
            body: JSON.parse(text) as unknown,
            retryAfter: res.headers['retry-after'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
