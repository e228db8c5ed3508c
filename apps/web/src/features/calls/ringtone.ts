/** The incoming call's ring: two tones played by WebAudio oscillators (no audio file to fetch). */
export interface Ringtone {
  start(): void;
  stop(): void;
}

const RING_MS = 1_200;
const CYCLE_MS = 3_000;
const TONES_HZ = [440, 480];

/** A silent ringtone where WebAudio is missing (tests, very old browsers). */
export function createRingtone(): Ringtone {
  const AudioContextClass = globalThis.AudioContext as typeof AudioContext | undefined;
  let context: AudioContext | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let voices: OscillatorNode[] = [];

  const ring = (ctx: AudioContext) => {
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    const until = ctx.currentTime + RING_MS / 1000;
    voices = TONES_HZ.map((hz) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start();
      osc.stop(until);
      return osc;
    });
  };

  return {
    start() {
      if (!AudioContextClass || context) return;
      try {
        context = new AudioContextClass();
        // A page nobody touched yet may start suspended; resuming is all it may do, silence otherwise.
        void context.resume().catch(() => undefined);
        ring(context);
        const ctx = context;
        timer = setInterval(() => ring(ctx), CYCLE_MS);
      } catch {
        context = null;
      }
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      for (const osc of voices) {
        try {
          osc.stop();
        } catch {
          // Already stopped at the end of its ring.
        }
      }
      voices = [];
      void context?.close().catch(() => undefined);
      context = null;
    },
  };
}
