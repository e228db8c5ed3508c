import { CALL, rtcConfigSchema, type RtcConfig } from '@campus/protocol';
import type { ApiClient } from '../../lib/api';
import type { PeerRtcConfig } from './peer';

/**
 * A test hook, not a setting: an end-to-end test stores 'relay' under this key to force media through TURN
 * (iceTransportPolicy 'relay'). Read only here; nothing in the UI writes it.
 */
export const ICE_POLICY_KEY = 'campus-talk:ice-policy';

/**
 * A fetched configuration is reused for random rooms until this long before its TURN credentials expire: a
 * room (10 minutes at most) started on it still has valid credentials for its relay's refreshes throughout.
 * A call may last longer: it asks for fresh ones (loadCallRtcConfig).
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
  /** When its credentials expire (this device's clock); Infinity while the fetch is under way. */
  expiresAt: number;
}

/**
 * The last configuration per API client (one server) for one user, in memory only (it holds credentials).
 * GET /api/rtc/config is limited per user and hour: fetched for every call and random room, a student
 * skipping through rooms ran out of it and could not connect any more, though each answer lasts its `ttl`.
 */
const held = new WeakMap<ApiClient, HeldRtcConfig>();

/**
 * The ICE servers for a random room of `userId`: GET /api/rtc/config, reused while its TURN credentials
 * have more than RTC_CONFIG_MARGIN_MS left. A failed fetch is not kept: the next load asks again.
 */
export async function loadRtcConfig(api: ApiClient, userId: string): Promise<PeerRtcConfig> {
  const last = held.get(api);
  const reusable = last?.userId === userId && Date.now() < last.reuseUntil;
  return toPeer(await (reusable ? last.config : fetchConfig(api, userId)));
}

/**
 * The ICE servers for a call of `userId`, which may last an hour: fresh TURN credentials (a relay's
 * refreshes are refused once they expire), or the held ones while still valid when the fetch fails (the
 * hourly limit spent on rooms).
 */
export async function loadCallRtcConfig(api: ApiClient, userId: string): Promise<PeerRtcConfig> {
  const last = held.get(api);
  try {
    return toPeer(await fetchConfig(api, userId));
  } catch (error) {
    if (last?.userId !== userId || Date.now() >= last.expiresAt) throw error;
    held.set(api, last);
    return toPeer(await last.config);
  }
}

function toPeer({ iceServers }: RtcConfig): PeerRtcConfig {
  return { iceServers, iceTransportPolicy: icePolicy() };
}

function fetchConfig(api: ApiClient, userId: string): Promise<RtcConfig> {
  const fetchedAt = Date.now();
  const entry: HeldRtcConfig = {
    userId,
    config: api.get('/api/rtc/config', rtcConfigSchema),
    reuseUntil: Infinity,
    expiresAt: Infinity,
  };
  held.set(api, entry);
  entry.config.then(
    (rtc) => {
      entry.expiresAt = fetchedAt + lifetimeMs(rtc);
      entry.reuseUntil = entry.expiresAt - RTC_CONFIG_MARGIN_MS;
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
