import { rtcConfigSchema } from '@campus/protocol';
import type { ApiClient } from '../../lib/api';
import type { PeerRtcConfig } from './peer';

/**
 * A test hook, not a setting: an end-to-end test stores 'relay' under this key to force media through TURN
 * (iceTransportPolicy 'relay'). Read only here; nothing in the UI writes it.
 */
export const ICE_POLICY_KEY = 'campus-talk:ice-policy';

function icePolicy(): RTCIceTransportPolicy {
  try {
    return localStorage.getItem(ICE_POLICY_KEY) === 'relay' ? 'relay' : 'all';
  } catch {
    return 'all';
  }
}

/** GET /api/rtc/config for each call: TURN credentials are short-lived. */
export async function loadRtcConfig(api: ApiClient): Promise<PeerRtcConfig> {
  const { iceServers } = await api.get('/api/rtc/config', rtcConfigSchema);
  return { iceServers, iceTransportPolicy: icePolicy() };
}

/** Whether the server handed out a TURN relay (not only STUN). */
export function hasRelay(rtc: PeerRtcConfig): boolean {
  const urls = rtc.iceServers.flatMap((server) => (Array.isArray(server.urls) ? server.urls : [server.urls]));
  return urls.some((url) => /^turns?:/.test(url));
}

/**
 * A stranger's room (random talk): only relay candidates when a TURN server is there, so neither side's IP
 * address (in the whole description) reaches the other. Without TURN (one machine, one LAN, development)
 * host candidates stay, or nothing could connect.
 */
export function forStrangers(rtc: PeerRtcConfig): PeerRtcConfig {
  return hasRelay(rtc) ? { ...rtc, iceTransportPolicy: 'relay' } : rtc;
}
