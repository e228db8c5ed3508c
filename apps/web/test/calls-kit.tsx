import 'fake-indexeddb/auto';
import { act, render } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type {
  CallLog,
  CallServerFrame,
  CallType,
  MediaKind,
  Platform,
  RtcConfig,
  SessionDescription,
  UserRef,
} from '@campus/protocol';
import { CallHistoryPage } from '../src/features/calls/CallHistoryPage';
import { CallLayer } from '../src/features/calls/CallLayer';
import { CallScreen } from '../src/features/calls/CallScreen';
import { CallDepsContext, type CallDeps } from '../src/features/calls/call-deps';
import type { CallPeer, PeerEvents, PeerOptions } from '../src/features/calls/peer';
import { FriendsPage } from '../src/features/friends/FriendsPage';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { SyncContext } from '../src/features/sync/sync-context';
import type { ApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { PlatformProvider } from '../src/platform';
import { FakeSyncClient, ME, SAM } from './chat-kit';
import { fakePlatform, student } from './helpers';

export { FakeSyncClient, ME, SAM };

/** A media track whose enabled flag and stop() the tests read. */
export interface FakeTrack {
  kind: 'audio' | 'video';
  enabled: boolean;
  readyState: 'live' | 'ended';
  stop(): void;
}

export function fakeStream(kinds: readonly ('audio' | 'video')[]): MediaStream & { tracks: FakeTrack[] } {
  const tracks: FakeTrack[] = kinds.map((kind) => ({
    kind,
    enabled: true,
    readyState: 'live' as FakeTrack['readyState'],
    stop() {
      this.readyState = 'ended';
    },
  }));
  const stream = {
    id: crypto.randomUUID(),
    tracks,
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
    getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
  };
  return stream as unknown as MediaStream & { tracks: FakeTrack[] };
}

/** The peer the call layer builds; the test plays the WebRTC side through `events`. */
export class FakePeer implements CallPeer {
  readonly received: SessionDescription[] = [];
  /** The swaps asked of replaceTrack, in order. */
  readonly replaced: { oldTrack: MediaStreamTrack; newTrack: MediaStreamTrack; stream: MediaStream }[] = [];
  destroyed = false;
  constructor(
    readonly options: PeerOptions,
    readonly events: PeerEvents,
  ) {}
  signal(description: SessionDescription): void {
    this.received.push(description);
  }
  replaceTrack(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack, stream: MediaStream): void {
    this.replaced.push({ oldTrack, newTrack, stream });
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export const OFFER: SessionDescription = { type: 'offer', sdp: 'v=0 caller offer' };
export const ANSWER: SessionDescription = { type: 'answer', sdp: 'v=0 callee answer' };
export const CALL_ID = '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f';
export const RTC: RtcConfig = {
  iceServers: [{ urls: 'turn:turn.campus.test:3478', username: '1:u-alex', credential: 'secret' }],
  ttl: 3600,
};

export function incomingOffer(
  callType: CallType = 'audio',
  from: UserRef = SAM,
  callId = CALL_ID,
): CallServerFrame {
  return { type: 'call:offer', callId, from, callType, signal: OFFER };
}

export interface CallWorld {
  client: FakeSyncClient;
  peers: FakePeer[];
  media: (MediaStream & { tracks: FakeTrack[] })[];
  getUserMedia: ReturnType<typeof vi.fn<(c: MediaStreamConstraints) => Promise<MediaStream>>>;
  permissions: MediaKind[];
  /** Permissions the platform refuses. */
  denied: Set<MediaKind>;
  notify: ReturnType<typeof vi.fn<Platform['notify']>>;
  ringtone: { playing: boolean; starts: number };
  rtcRequests: string[];
  hidden: boolean;
  lastPeer(): FakePeer;
}

/** Fakes for everything the call layer takes from the device: peer, media, ringtone, platform, REST. */
export function callWorld(client = new FakeSyncClient()): CallWorld {
  const world: CallWorld = {
    client,
    peers: [],
    media: [],
    getUserMedia: vi.fn(async (constraints: MediaStreamConstraints) => {
      const stream = fakeStream(constraints.video ? ['audio', 'video'] : ['audio']);
      world.media.push(stream);
      return stream;
    }),
    permissions: [],
    denied: new Set(),
    notify: vi.fn(async () => undefined),
    ringtone: { playing: false, starts: 0 },
    rtcRequests: [],
    hidden: false,
    lastPeer() {
      const peer = world.peers.at(-1);
      if (!peer) throw new Error('no peer was made');
      return peer;
    },
  };
  return world;
}

function deps(world: CallWorld): CallDeps {
  return {
    createPeer: async (options, events) => {
      const peer = new FakePeer(options, events);
      world.peers.push(peer);
      return peer;
    },
    getUserMedia: world.getUserMedia,
    createRingtone: () => ({
      start() {
        world.ringtone.playing = true;
        world.ringtone.starts += 1;
      },
      stop() {
        world.ringtone.playing = false;
      },
    }),
    isHidden: () => world.hidden,
    now: () => Date.now(),
  };
}

/** Only GET /api/rtc/config is asked by the call layer; answered at once (fake timers need no fetch). */
function rtcApi(world: CallWorld): ApiClient {
  const unexpected = () => Promise.reject(new Error('not used by the call layer'));
  return {
    get: <T,>(path: string, schema: { parse(data: unknown): T }) => {
      world.rtcRequests.push(path);
      return path === '/api/rtc/config' ? Promise.resolve(schema.parse(RTC)) : unexpected();
    },
    post: unexpected,
    patch: unexpected,
    put: unexpected,
    delete: unexpected,
    postForm: unexpected,
  };
}

const signedIn: SessionContextValue = {
  status: 'signed-in',
  user: student,
  endedBy: null,
  signIn: () => undefined,
  updateUser: () => undefined,
  logout: async () => undefined,
  expire: async () => undefined,
  retry: () => undefined,
};

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** The call layer as the shell mounts it, with the friends list, /call and /call-history. */
export function renderCalls(
  world: CallWorld,
  entries: string[] = ['/talk'],
  overrides: Partial<Platform> = {},
): void {
  const platform: Platform = {
    ...fakePlatform(),
    notify: world.notify,
    requestMediaPermission: async (kind) => {
      world.permissions.push(kind);
      return !world.denied.has(kind);
    },
    ...overrides,
  };
  render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <PlatformProvider platform={platform}>
        <ApiProvider api={rtcApi(world)}>
          <SessionContext value={signedIn}>
            <SyncContext value={world.client}>
              <CallDepsContext value={deps(world)}>
                <CallLayer>
                  <Routes>
                    <Route path="/talk" element={<p>Talk home</p>} />
                    <Route path="/friends" element={<FriendsPage />} />
                    <Route path="/call" element={<CallScreen />} />
                    <Route path="/call-history" element={<CallHistoryPage />} />
                  </Routes>
                  <LocationProbe />
                  {/* The shell's navigation, as a student leaves the call screen for another one. */}
                  <Link to="/talk">Go to Talk</Link>
                </CallLayer>
              </CallDepsContext>
            </SyncContext>
          </SessionContext>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}

/** Lets promises settle (media, REST, the peer's import) under fake timers. */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

let clock = Date.parse('2026-11-20T09:00:00.000Z');
export function callLog(extra: Partial<CallLog> = {}): CallLog {
  clock += 3_600_000;
  return {
    id: crypto.randomUUID(),
    status: 'completed',
    callType: 'audio',
    caller: ME,
    callee: SAM,
    startedAt: new Date(clock).toISOString(),
    duration: 65,
    ...extra,
  };
}
