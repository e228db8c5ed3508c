import webpush from 'web-push';
import type { PushPayload } from '@campus/protocol';
import type { Logger } from '../logger';
import type { VapidKeys } from './vapid';

/** A stored browser subscription: where to POST and the keys the payload is encrypted for. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** 'gone': the push service no longer knows the subscription (404/410), so it should be forgotten. */
export type PushResult = 'sent' | 'gone' | 'failed';

export interface PushSendOptions {
  /** 'high' asks the push service to wake the device now (a friend request); 'normal' lets it batch. */
  urgency: 'normal' | 'high';
}

export interface PushService {
  /** The VAPID public key browsers subscribe with. */
  readonly publicKey: string;
  send(target: PushTarget, payload: PushPayload, options: PushSendOptions): Promise<PushResult>;
  /** Whether an endpoint may be stored: a known browser push service (in tests, any http(s) URL). */
  acceptsEndpoint(endpoint: string): boolean;
}

export interface PushServiceOptions {
  vapid: VapidKeys;
  /** `mailto:` or https URL the push services may contact. */
  subject: string;
  log: Logger;
  /** Tests only: any http(s) endpoint, so they can run a local push service. */
  allowLocalEndpoints: boolean;
}

/** A day: a reaction told later than that is no longer news; the panel still lists it. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 10_000;

/** Where a log line may say a push went: the push service's origin, never the per-subscription path. */
export function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * The browsers' push services. A subscription endpoint is a URL the server will POST to, so outside tests
 * only these hosts on the default https port are accepted: checking for 'public' hostnames is not enough
 * (a name like 127.0.0.1.nip.io, or an internal company host, resolves inward).
 */
const PUSH_SERVICE_HOSTS: readonly RegExp[] = [
  /^fcm\.googleapis\.com$/, // Chrome, Edge on Android, Opera, Samsung Internet
  /^updates\.push\.services\.mozilla\.com$/, // Firefox
  /^[a-z0-9-]+\.notify\.windows\.com$/, // Edge on Windows (WNS)
  /^web\.push\.apple\.com$/, // Safari
];

function isPushService(url: URL): boolean {
  return (
    url.protocol === 'https:' && url.port === '' && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname))
  );
}

/**
 * Web push with VAPID. web-push builds the request (aes128gcm encryption of the payload, the VAPID JWT,
 * TTL and Urgency headers); fetch delivers it, because web-push's own sender speaks https only and the
 * tests' push service is a local http server. Redirects are not followed: a push service answers directly.
 */
export function createPushService(options: PushServiceOptions): PushService {
  const vapidDetails = { subject: options.subject, ...options.vapid };

  function acceptsEndpoint(endpoint: string): boolean {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    if (options.allowLocalEndpoints) return url.protocol === 'https:' || url.protocol === 'http:';
    return isPushService(url);
  }

  return {
    publicKey: options.vapid.publicKey,
    acceptsEndpoint,
    async send(target, payload, sendOptions) {
      if (!acceptsEndpoint(target.endpoint)) return 'gone';
      const origin = endpointOrigin(target.endpoint);
      try {
        const request = webpush.generateRequestDetails(target, JSON.stringify(payload), {
          vapidDetails,
          TTL: PUSH_TTL_SECONDS,
          urgency: sendOptions.urgency,
          contentEncoding: 'aes128gcm',
        });
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          // fetch sets the length from the body itself.
          if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
        }
        const response = await fetch(request.endpoint, {
          method: 'POST',
          headers,
          body: request.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
        });
        await response.body?.cancel();
        if (response.status === 404 || response.status === 410) return 'gone';
        if (response.ok) return 'sent';
        options.log.warn({ origin, status: response.status }, 'web push refused');
        return 'failed';
      } catch (error) {
        // The error may quote the endpoint; log only its kind.
        const name = error instanceof Error ? error.name : 'unknown';
        options.log.warn({ origin, error: name }, 'web push failed');
        return 'failed';
      }
    },
  };
}

/** For one-off commands: nothing is pushed from a CLI run (the server pushes what it creates itself). */
export function disabledPushService(): PushService {
  return { publicKey: '', acceptsEndpoint: () => false, send: () => Promise.resolve('failed') };
}
