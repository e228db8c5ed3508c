import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RtcConfig } from '@campus/protocol';
import {
  forgetRtcConfig,
  loadCallRtcConfig,
  loadRtcConfig,
  RTC_CONFIG_MARGIN_MS,
} from '../src/features/calls/rtc-config';
import { ApiError, type ApiClient } from '../src/lib/api';
import { RTC } from './calls-kit';

afterEach(() => {
  vi.useRealTimers();
});

/** An API client that answers GET /api/rtc/config with `answers` in turn (an Error is thrown), counting. */
function rtcServer(...answers: (RtcConfig | Error)[]) {
  const server = { requests: 0, api: {} as ApiClient };
  const unexpected = () => Promise.reject(new Error('only GET /api/rtc/config'));
  server.api = {
    get: <T>(path: string, schema: { parse(data: unknown): T }) => {
      if (path !== '/api/rtc/config') return unexpected();
      const answer = answers[Math.min(server.requests, answers.length - 1)]!;
      server.requests += 1;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(schema.parse(answer));
    },
    post: unexpected,
    patch: unexpected,
    put: unexpected,
    delete: unexpected,
    postForm: unexpected,
  };
  return server;
}

const SECOND: RtcConfig = {
  iceServers: [{ urls: 'turn:turn.campus.test:3478', username: '2:u-alex', credential: 'other' }],
  ttl: 3600,
};

/**
 * GET /api/rtc/config is limited per user and hour (60): the answer, whose TURN credentials last its
 * `ttl`, is reused by the calls and random rooms that follow, in memory and for its user only.
 */
describe('the ICE configuration, held', () => {
  it('is fetched once for loads in a row and at once, and again once its credentials near their expiry', async () => {
    vi.useFakeTimers();
    const server = rtcServer(RTC, SECOND);
    const [first, second] = await Promise.all([
      loadRtcConfig(server.api, 'u-alex'),
      loadRtcConfig(server.api, 'u-alex'),
    ]);
    expect(first).toEqual({ iceServers: RTC.iceServers, iceTransportPolicy: 'all' });
    expect(second).toEqual(first);
    expect(server.requests).toBe(1);

    vi.setSystemTime(Date.now() + RTC.ttl * 1000 - RTC_CONFIG_MARGIN_MS - 1);
    expect((await loadRtcConfig(server.api, 'u-alex')).iceServers).toEqual(RTC.iceServers);
    expect(server.requests).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect((await loadRtcConfig(server.api, 'u-alex')).iceServers).toEqual(SECOND.iceServers);
    expect(server.requests).toBe(2);
  });

  it('is one user’s: another account signed in on the device fetches its own', async () => {
    const server = rtcServer(RTC, SECOND);
    await loadRtcConfig(server.api, 'u-alex');
    expect((await loadRtcConfig(server.api, 'u-sam')).iceServers).toEqual(SECOND.iceServers);
    expect(server.requests).toBe(2);
  });

  it('a failed fetch (the hourly limit) is not kept: the next load asks again', async () => {
    const server = rtcServer(new ApiError('http', 429, 'Too many', undefined), RTC);
    await expect(loadRtcConfig(server.api, 'u-alex')).rejects.toBeInstanceOf(ApiError);
    expect((await loadRtcConfig(server.api, 'u-alex')).iceServers).toEqual(RTC.iceServers);
    expect(server.requests).toBe(2);
  });

  it('without TURN (ttl 0) is kept too, and dropped on sign-out', async () => {
    const server = rtcServer({ iceServers: [{ urls: 'stun:stun.campus.test' }], ttl: 0 }, RTC);
    await loadRtcConfig(server.api, 'u-alex');
    await loadRtcConfig(server.api, 'u-alex');
    expect(server.requests).toBe(1);
    forgetRtcConfig(server.api);
    expect((await loadRtcConfig(server.api, 'u-alex')).iceServers).toEqual(RTC.iceServers);
    expect(server.requests).toBe(2);
  });

  it('a call, which may last an hour, asks for fresh credentials; the held ones serve if the fetch fails', async () => {
    vi.useFakeTimers();
    const limited = new ApiError('http', 429, 'Too many', undefined);
    const server = rtcServer(RTC, SECOND, limited);
    await loadRtcConfig(server.api, 'u-alex');
    // Half the credentials' life later a room would reuse them; a call does not.
    vi.setSystemTime(Date.now() + (RTC.ttl * 1000) / 2);
    expect((await loadCallRtcConfig(server.api, 'u-alex')).iceServers).toEqual(SECOND.iceServers);
    expect(server.requests).toBe(2);
    // The hourly limit spent: the call still connects on the held ones, valid for a while yet.
    expect((await loadCallRtcConfig(server.api, 'u-alex')).iceServers).toEqual(SECOND.iceServers);
    expect(server.requests).toBe(3);
    // Held ones that expired are no fallback.
    vi.setSystemTime(Date.now() + RTC.ttl * 1000);
    await expect(loadCallRtcConfig(server.api, 'u-alex')).rejects.toBeInstanceOf(ApiError);
  });
});
