import { createHmac } from 'node:crypto';
import { CALL, type IceServerConfig, type RtcConfig } from '@campus/protocol';
import type { Config } from '../../config';

/**
 * The ICE servers a user's calls use (`GET /api/rtc/config`): the STUN servers of TURN_URLS as they are, its
 * TURN servers with TURN REST credentials (coturn's use-auth-secret): username `expiry:userId`, credential
 * base64(HMAC-SHA1(TURN_SECRET, username)), valid CALL.turnCredentialTtlSeconds. Without TURN_URLS an empty
 * list: host candidates only, never a third-party STUN server.
 */
export function rtcConfigFor(
  config: Pick<Config, 'turnUrls' | 'turnSecret'>,
  userId: string,
  nowMs: number,
): RtcConfig {
  const stun = config.turnUrls.filter((url) => url.startsWith('stun:'));
  const turn = config.turnUrls.filter((url) => !url.startsWith('stun:'));
  const iceServers: IceServerConfig[] = [];
  if (stun.length) iceServers.push({ urls: stun });
  // config.ts refuses TURN servers without a secret.
  if (!turn.length || !config.turnSecret) return { iceServers, ttl: 0 };
  const ttl = CALL.turnCredentialTtlSeconds;
  const username = `${Math.floor(nowMs / 1000) + ttl}:${userId}`;
  const credential = createHmac('sha1', config.turnSecret).update(username).digest('base64');
  iceServers.push({ urls: turn, username, credential });
  return { iceServers, ttl };
}
