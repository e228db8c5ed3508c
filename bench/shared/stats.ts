/** Percentiles of latency samples (ms). Samples are few enough (≤ 400,000 per phase) to sort exactly. */
export function percentiles(samples: Float64Array, ps: readonly number[]): number[] {
  if (samples.length === 0) return ps.map(() => NaN);
  const sorted = Float64Array.from(samples).sort();
  return ps.map((p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
}

/** A growable Float64Array: pushing 400,000 numbers into a plain array would cost the generator GC time. */
export class SampleBuffer {
  private data = new Float64Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
