import 'fake-indexeddb/auto';
import { act, render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type { Platform, RandomCounts, RandomPartner, RandomServerFrame, User } from '@campus/protocol';
import { CallDepsContext, type CallDeps } from '../src/features/calls/call-deps';
import type { BlurredVideo } from '../src/features/random/blur-video';
import { FocusedTalkOptionsPage } from '../src/features/random/focused/FocusedTalkOptionsPage';
import { FocusedTalkPage } from '../src/features/random/focused/FocusedTalkPage';
import { RandomAudioPage } from '../src/features/random/RandomAudioPage';
import { RandomChatPage } from '../src/features/random/RandomChatPage';
import { RandomDepsContext } from '../src/features/random/random-deps';
import { RandomTalkOptionsPage } from '../src/features/random/RandomTalkOptionsPage';
import { RandomVideoPage } from '../src/features/random/RandomVideoPage';
import { SessionContext, type SessionContextValue } from '../src/features/session/session-context';
import { SyncContext } from '../src/features/sync/sync-context';
import type { ApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { PlatformProvider } from '../src/platform';
import { callWorld, FakePeer, fakeStream, RTC, type CallWorld, type FakeTrack } from './calls-kit';
import { fakePlatform, student } from './helpers';

export { FakePeer, fakeStream, type FakeTrack };

export const ROOM = 'room-7f3a';
export const BO: RandomPartner = {
  firstName: 'Bo',
  profilePictureUrl: null,
  college: 'IIT Delhi',
  course: 'Electrical Engineering',
};

/** The blurred stream the video screen builds from the camera (canvas and captureStream in a browser). */
export interface FakeBlur extends BlurredVideo {
  camera: MediaStream;
  stopped: boolean;
}

export interface RandomWorld extends CallWorld {
  blurs: FakeBlur[];
  /** GET /api/random/counts answers, by the filters' JSON ('' for none). */
  counts: (filtersJson: string) => RandomCounts;
  /** The counts paths asked for, in order. */
  countRequests: string[];
  /** GET /api/rtc/config fails with this while set (the hourly limit's 429, say). */
  rtcError: Error | null;
}

export function randomWorld(): RandomWorld {
  return {
    ...callWorld(),
    blurs: [],
    counts: () => ({ total: 40, waiting: { audio: 3, video: 2, chat: 5 } }),
    countRequests: [],
    rtcError: null,
  };
}

function deps(world: RandomWorld): CallDeps {
  return {
    createPeer: async (options, events) => {
      const peer = new FakePeer(options, events);
      world.peers.push(peer);
      return peer;
    },
    getUserMedia: world.getUserMedia,
    createRingtone: () => ({ start() {}, stop() {} }),
    isHidden: () => false,
    now: () => Date.now(),
  };
}

function blurVideo(world: RandomWorld) {
  return (camera: MediaStream): BlurredVideo => {
    const blurredStream = fakeStream(['video']);
    const blurred = blurredStream.tracks[0] as unknown as MediaStreamTrack;
    const stream = {
      id: 'blurred-out',
      getTracks: () => [...camera.getAudioTracks(), blurred],
      getAudioTracks: () => camera.getAudioTracks(),
      getVideoTracks: () => [blurred],
    } as unknown as MediaStream;
    const blur: FakeBlur = {
      camera,
      stream,
      blurred,
      stopped: false,
      stop() {
        blur.stopped = true;
        (blurred as unknown as FakeTrack).stop();
      },
    };
    world.blurs.push(blur);
    return blur;
  };
}

/** The REST the random screens use: the ICE servers and the counts. */
function randomApi(world: RandomWorld): ApiClient {
  const unexpected = () => Promise.reject(new Error('not used by the random screens'));
  return {
    get: <T,>(path: string, schema: { parse(data: unknown): T }) => {
      if (path === '/api/rtc/config') {
        world.rtcRequests.push(path);
        return world.rtcError ? Promise.reject(world.rtcError) : Promise.resolve(schema.parse(RTC));
      }
      if (path.startsWith('/api/random/counts')) {
        world.countRequests.push(path);
        const filters = new URL(path, 'http://x').searchParams.get('filters') ?? '';
        return Promise.resolve(schema.parse(world.counts(filters)));
      }
      return unexpected();
    },
    post: unexpected,
    patch: unexpected,
    put: unexpected,
    delete: unexpected,
    postForm: unexpected,
  };
}

function session(user: User): SessionContextValue {
  return {
    status: 'signed-in',
    user,
    endedBy: null,
    signIn: () => undefined,
    updateUser: () => undefined,
    logout: async () => undefined,
    expire: async () => undefined,
    retry: () => undefined,
  };
}

function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </div>
  );
}

type Entry = string | { pathname: string; state?: unknown };

/** The random and focused screens with the fake client, peer, media and blur. */
export function renderRandom(world: RandomWorld, entries: Entry[], user: User = student): RenderResult {
  const platform: Platform = {
    ...fakePlatform(),
    requestMediaPermission: async (kind) => {
      world.permissions.push(kind);
      return !world.denied.has(kind);
    },
  };
  return render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <PlatformProvider platform={platform}>
        <ApiProvider api={randomApi(world)}>
          <SessionContext value={session(user)}>
            <SyncContext value={world.client}>
              <CallDepsContext value={deps(world)}>
                <RandomDepsContext value={{ blurVideo: blurVideo(world) }}>
                  <Routes>
                    <Route path="/talk" element={<p>Talk home</p>} />
                    <Route path="/random-talk-options" element={<RandomTalkOptionsPage />} />
                    <Route path="/random-audio" element={<RandomAudioPage />} />
                    <Route path="/random-video" element={<RandomVideoPage />} />
                    <Route path="/random-chat" element={<RandomChatPage />} />
                    <Route path="/focused-talk" element={<FocusedTalkPage />} />
                    <Route path="/focused-talk-options" element={<FocusedTalkOptionsPage />} />
                  </Routes>
                  <LocationProbe />
                </RandomDepsContext>
              </CallDepsContext>
            </SyncContext>
          </SessionContext>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}

/** The server sends a random-talk frame (inside act: the screen re-renders). */
export function serverSends(world: RandomWorld, frame: RandomServerFrame): void {
  act(() => world.client.emitRandomFrame(frame));
}

/** Lets promises settle (media, REST, the peer's import) under fake timers. */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

export function tracksEnded(stream: { tracks: FakeTrack[] }): boolean {
  return stream.tracks.every((t) => t.readyState === 'ended');
}
