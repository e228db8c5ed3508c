import { CALL, rtcConfigSchema, type RtcConfig } from '@campus/protocol';
import type { ApiClient } from '../../lib/api';
import type { PeerRtcConfig } from './peer';

/**
 * A test hook, not a setting: an end-to-end test stores 'relay' under this key to force media through TURN
 * (iceTransportPolicy 'relay'). Read only here; nothing in the UI writes it.
 */
export const ICE_POLICY_KEY = 'campus-talk:ice-policy';

/**
 * A fetched configuration is reused until this long before its TURN credentials expire: a random room
 * (10 minutes at most) or a call started on it still has valid credentials for its relay's refreshes for
 * at least this long.
 */
export const RTC_CONFIG_MARGIN_MS = 15 * 60_000;

function icePolicy(): RTCIceTransportPolicy {
  try {
    return localStorage.getItem(ICE_POLICY_KEY) === 'relay' ? 'relay' : 'all';
  } catch {
    return 'all';
  }
}

/** One user's ICE configuration as fetched (the promise, so that two loads at once fetch once). */
interface HeldRtcConfig {
  userId: string;
  config: Promise<RtcConfig>;
  /** This device's clock; Infinity while the fetch is under way. */
  reuseUntil: number;
}

/**
 * The last configuration per API client (one server) for one user, in memory only (it holds credentials).
 * GET /api/rtc/config is limited per user and hour: fetched for every call and random room, a student
 * skipping through rooms ran out of it and could not connect any more, though each answer lasts its `ttl`.
 */
const held = new WeakMap<ApiClient, HeldRtcConfig>();

/**
 * The ICE servers for a call or random room of `userId`: GET /api/rtc/config, reused while its TURN
 * credentials have more than RTC_CONFIG_MARGIN_MS left. A failed fetch is not kept: the next load asks again.
 */
export async function loadRtcConfig(api: ApiClient, userId: string): Promise<PeerRtcConfig> {
  const { iceServers } = await heldConfig(api, userId);
  return { iceServers, iceTransportPolicy: icePolicy() };
}

function heldConfig(api: ApiClient, userId: string): Promise<RtcConfig> {
  const last = held.get(api);
  if (last?.userId === userId && Date.now() < last.reuseUntil) return last.config;
  const fetchedAt = Date.now();
  const entry: HeldRtcConfig = {
    userId,
    config: api.get('/api/rtc/config', rtcConfigSchema),
    reuseUntil: Infinity,
  };
  held.set(api, entry);
  entry.config.then(
    (rtc) => {
      entry.reuseUntil = fetchedAt + lifetimeMs(rtc) - RTC_CONFIG_MARGIN_MS;
    },
    () => {
      if (held.get(api) === entry) held.delete(api);
    },
  );
  return entry.config;
}

/**
 * How long an answer holds: its credentials' `ttl`. Without TURN (ttl 0) nothing expires; an hour all the
 * same, so that TURN set up on the server meanwhile is picked up.
 */
function lifetimeMs(rtc: RtcConfig): number {
  return (rtc.ttl || CALL.turnCredentialTtlSeconds) * 1000;
}

/** Signing out: the user's TURN credentials do not outlive the session in memory. */
export function forgetRtcConfig(api: ApiClient): void {
  held.delete(api);
}

/** Whether the server handed out a TURN relay (not only STUN). */
export function hasRelay(rtc: PeerRtcConfig): boolean {
  const urls = rtc.iceServers.flatMap((server) => (Array.isArray(server.urls) ? server.urls : [server.urls]));
  return urls.some((url) => /^turns?:/.test(url));
}

/**
 * A stranger's room (random talk): only relay candidates when a TURN server is there, so neither side's IP
 * address (in the whole description) reaches the other. Without TURN (one machine, one LAN, development)
 * host candidates stay, or nothing could connect; STUN servers go, since what they add is each side's public
 * address (a deployment with STUN only connects strangers on one network, never at the price of that).
 */
export function forStrangers(rtc: PeerRtcConfig): PeerRtcConfig {
  return hasRelay(rtc) ? { ...rtc, iceTransportPolicy: 'relay' } : { ...rtc, iceServers: [] };
}
