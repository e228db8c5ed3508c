import type { Page } from '@playwright/test';
import { chromiumLaunch } from './chromium';

/**
 * What the end-to-end calls read of WebRTC: every RTCPeerConnection a page makes is remembered by an init
 * script (the app's code is untouched), so a test reads the real getStats(). And the Chromium launch with
 * fake media devices (a tone and a test pattern), granted as a student clicking Allow would.
 */
export const FAKE_MEDIA = {
  permissions: ['camera', 'microphone'],
  launchOptions: chromiumLaunch([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ]),
};

declare global {
  interface Window {
    __peerConnections?: RTCPeerConnection[];
  }
}

/** Remembers every peer connection the page creates (the app's code is untouched). */
export function recordPeerConnections(): void {
  const Native = window.RTCPeerConnection;
  const seen: RTCPeerConnection[] = [];
  window.__peerConnections = seen;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      seen.push(this);
    }
  } as typeof RTCPeerConnection;
}

export interface InboundStats {
  audioBytes: number;
  audioEnergy: number;
  videoBytes: number;
  framesDecoded: number;
  relay: boolean;
}

/** The newest peer connection's inbound stats, and whether its selected pair runs through a TURN relay. */
export function inboundStats(page: Page): Promise<InboundStats> {
  return page.evaluate(async () => {
    const pc = window.__peerConnections?.at(-1);
    const out = { audioBytes: 0, audioEnergy: 0, videoBytes: 0, framesDecoded: 0, relay: false };
    if (!pc) return out;
    const report = await pc.getStats();
    const byId = new Map<string, Record<string, unknown>>();
    report.forEach((s: Record<string, unknown>) => byId.set(s.id as string, s));
    report.forEach((s: Record<string, unknown>) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') {
        out.audioBytes += Number(s.bytesReceived ?? 0);
        out.audioEnergy += Number(s.totalAudioEnergy ?? 0);
      }
      if (s.type === 'inbound-rtp' && s.kind === 'video') {
        out.videoBytes += Number(s.bytesReceived ?? 0);
        out.framesDecoded += Number(s.framesDecoded ?? 0);
      }
      if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string') {
        const pair = byId.get(s.selectedCandidatePairId);
        const local = pair ? byId.get(pair.localCandidateId as string) : undefined;
        out.relay = local?.candidateType === 'relay';
      }
    });
    return out;
  });
}
