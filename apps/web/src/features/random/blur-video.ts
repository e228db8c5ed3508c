/**
 * Random video starts blurred (DESIGN, Safety), and the blur is applied before the picture leaves this
 * device: the camera is drawn into a canvas through `blur(24px)` and the canvas' own track is what the peer
 * sends until both sides revealed. A modified client on the other side cannot undo a blur it never received.
 */
export interface BlurredVideo {
  /** What the peer is built with: the microphone and the blurred picture. */
  stream: MediaStream;
  /** The blurred track inside `stream` (replaced by the camera's on reveal). */
  blurred: MediaStreamTrack;
  /** Stops the drawing and the canvas track (the camera's tracks are the caller's to stop). */
  stop(): void;
}

/** Builds the blurred stream from the local camera stream; tests put a fake in its place. */
export type BlurVideo = (camera: MediaStream) => BlurredVideo;

export const BLUR_RADIUS_PX = 24;
/** Frames a second drawn into the canvas (timers, so a hidden tab still sends a picture, slowly). */
const FPS = 15;

export const browserBlurVideo: BlurVideo = (camera) => {
  const [cameraTrack] = camera.getVideoTracks();
  const settings = cameraTrack?.getSettings() ?? {};
  const canvas = document.createElement('canvas');
  canvas.width = settings.width ?? 640;
  canvas.height = settings.height ?? 480;
  const ctx = canvas.getContext('2d');
  const source = document.createElement('video');
  source.muted = true;
  source.playsInline = true;
  source.srcObject = cameraTrack ? new MediaStream([cameraTrack]) : null;
  void source.play().catch(() => undefined);

  // Where the canvas ignores `filter` (older Safari), the picture goes through a tiny canvas instead: scaled
  // down to a few pixels and back up, it is just as unrecognisable.
  const filtered = supportsFilter(ctx);
  const tiny = document.createElement('canvas');
  tiny.width = 16;
  tiny.height = 12;
  const tinyCtx = filtered ? null : tiny.getContext('2d');

  const draw = () => {
    if (!ctx) return;
    if (source.videoWidth && (canvas.width !== source.videoWidth || canvas.height !== source.videoHeight)) {
      canvas.width = source.videoWidth;
      canvas.height = source.videoHeight;
    }
    if (filtered) {
      ctx.filter = `blur(${BLUR_RADIUS_PX}px)`;
      // Drawn a little larger than the canvas: the blur's soft edge stays outside the picture.
      const pad = BLUR_RADIUS_PX * 2;
      ctx.drawImage(source, -pad, -pad, canvas.width + 2 * pad, canvas.height + 2 * pad);
    } else if (tinyCtx) {
      tinyCtx.drawImage(source, 0, 0, tiny.width, tiny.height);
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(tiny, 0, 0, canvas.width, canvas.height);
    }
  };
  if (ctx) {
    // Until the camera's first frame, a dark picture rather than a transparent one.
    ctx.fillStyle = '#111';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  const timer = setInterval(draw, 1000 / FPS);
  const [blurred] = canvas.captureStream(FPS).getVideoTracks();
  if (!blurred) throw new Error('This browser cannot blur the video.');
  const stream = new MediaStream([...camera.getAudioTracks(), blurred]);
  return {
    stream,
    blurred,
    stop() {
      clearInterval(timer);
      blurred.stop();
      source.srcObject = null;
    },
  };
};

/** Whether this canvas applies `filter` (an unsupported property reads back as something else). */
function supportsFilter(ctx: CanvasRenderingContext2D | null): boolean {
  if (!ctx || typeof ctx.filter !== 'string') return false;
  ctx.filter = `blur(${BLUR_RADIUS_PX}px)`;
  const ok = ctx.filter === `blur(${BLUR_RADIUS_PX}px)`;
  ctx.filter = 'none';
  return ok;
}
