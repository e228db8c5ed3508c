import { afterEach, describe, expect, it, vi } from 'vitest';
import { BLUR_RADIUS_PX, browserBlurVideo } from '../src/features/random/blur-video';
import { fakeStream, type FakeTrack } from './calls-kit';

/** A 2D context that records what was drawn and under which filter; `filterWorks` false: an old Safari. */
function fakeContext(filterWorks: boolean) {
  let filter = 'none';
  const draws: { source: unknown; filter: string; w: number }[] = [];
  const ctx = {
    get filter() {
      return filter;
    },
    set filter(value: string) {
      if (filterWorks) filter = value;
    },
    fillStyle: '',
    imageSmoothingEnabled: false,
    fillRect: () => undefined,
    drawImage: (source: unknown, _x: number, _y: number, w: number) => void draws.push({ source, filter, w }),
  };
  return { ctx, draws };
}

class FakeMediaStream {
  constructor(readonly tracks: unknown[]) {}
  getTracks = () => this.tracks;
  getVideoTracks = () => this.tracks.filter((t) => (t as FakeTrack).kind === 'video');
  getAudioTracks = () => this.tracks.filter((t) => (t as FakeTrack).kind === 'audio');
}

function stubBrowser(filterWorks: boolean) {
  const canvases: { el: HTMLCanvasElement; ctx: ReturnType<typeof fakeContext> }[] = [];
  const captured = fakeStream(['video']);
  const create = document.createElement.bind(document);
  vi.spyOn(document, 'createElement').mockImplementation((tag: string) => {
    const el = create(tag);
    if (tag === 'canvas') {
      const ctx = fakeContext(filterWorks);
      canvases.push({ el: el as HTMLCanvasElement, ctx });
      Object.assign(el, { getContext: () => ctx.ctx, captureStream: () => captured });
    }
    if (tag === 'video') Object.assign(el, { play: () => Promise.resolve() });
    return el;
  });
  vi.stubGlobal('MediaStream', FakeMediaStream);
  return { canvases, captured };
}

afterEach(() => {
  vi.restoreAllMocks();
});

function camera() {
  const stream = fakeStream(['audio', 'video']);
  const video = stream.tracks[1] as FakeTrack & { getSettings(): MediaTrackSettings };
  video.getSettings = () => ({ width: 320, height: 240 });
  return stream;
}

describe('the sender-side blur of random video', () => {
  it("draws the camera through blur(24px) and sends the canvas' track with the microphone, never the camera's", () => {
    vi.useFakeTimers();
    const { canvases, captured } = stubBrowser(true);
    const cam = camera();
    const blur = browserBlurVideo(cam);
    expect(blur.blurred).toBe(captured.tracks[0]);
    expect(blur.stream.getTracks()).toEqual([cam.tracks[0], captured.tracks[0]]);
    expect(blur.stream.getVideoTracks()).not.toContain(cam.tracks[1]);

    vi.advanceTimersByTime(200);
    const { draws } = canvases[0]!.ctx;
    expect(draws.length).toBeGreaterThan(1);
    expect(draws.every((d) => d.filter === `blur(${BLUR_RADIUS_PX}px)`)).toBe(true);
    expect(draws[0]!.source).toBeInstanceOf(HTMLVideoElement);

    blur.stop();
    expect((captured.tracks[0] as FakeTrack).readyState).toBe('ended');
    const drawn = draws.length;
    vi.advanceTimersByTime(1000);
    expect(draws).toHaveLength(drawn);
    // The camera is the caller's to stop.
    expect(cam.tracks.every((t) => t.readyState === 'live')).toBe(true);
  });

  it('where the canvas ignores filter, the picture goes through a tiny canvas (a few pixels) instead', () => {
    vi.useFakeTimers();
    const { canvases } = stubBrowser(false);
    browserBlurVideo(camera());
    vi.advanceTimersByTime(200);
    const [main, tiny] = canvases;
    expect(tiny!.el.width).toBe(16);
    expect(tiny!.ctx.draws.length).toBeGreaterThan(0);
    expect(tiny!.ctx.draws.every((d) => d.source instanceof HTMLVideoElement && d.w === 16)).toBe(true);
    // The main canvas only ever gets the tiny picture, never the camera's.
    expect(main!.ctx.draws.length).toBeGreaterThan(0);
    expect(main!.ctx.draws.every((d) => d.source === tiny!.el)).toBe(true);
  });
});
