import { describe, expect, it } from 'vitest';
import { REALTIME_TIMING } from '@campus/protocol';
import { reconnectDelay } from '../src';

// The wire behaviour (hello, reconnects, silent peers, close codes) is tested against the real server in
// tests/system/connection.test.ts and close-codes.test.ts.
describe('reconnect backoff', () => {
  it('stays within 1–5 s with jitter, growing with failed attempts', () => {
    const delays = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.999]) {
        const d = reconnectDelay(attempt, REALTIME_TIMING, () => r);
        expect(d).toBeGreaterThanOrEqual(1000);
        expect(d).toBeLessThanOrEqual(5000);
        delays.push(d);
      }
    }
    expect(reconnectDelay(0, REALTIME_TIMING, () => 0.999)).toBeLessThanOrEqual(1500);
    expect(reconnectDelay(6, REALTIME_TIMING, () => 0)).toBeGreaterThanOrEqual(2500);
    // Jitter: the same attempt does not always wait the same time.
    expect(new Set([0.1, 0.9].map((r) => reconnectDelay(2, REALTIME_TIMING, () => r))).size).toBe(2);
  });
});
