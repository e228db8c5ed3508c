/**
 * Chromium's fake camera (`--use-file-for-fake-video-capture`) plays a Y4M file: a text header, then
 * frames of raw planar YUV 4:2:0 (BT.601). This turns an RGB image into such a file, so a test can hold a
 * generated student ID up to the "camera".
 */
export function rgbToY4m(rgb: Uint8Array, width: number, height: number, frames = 2): Buffer {
  if (width % 2 || height % 2) throw new Error('Y4M 4:2:0 needs even dimensions');
  const ySize = width * height;
  const cSize = (width / 2) * (height / 2);
  const frame = Buffer.alloc(ySize + 2 * cSize);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      frame[y * width + x] = clamp(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256);
    }
  }
  // Chroma from the top-left pixel of each 2×2 block: enough for a still card.
  for (let y = 0; y < height / 2; y++) {
    for (let x = 0; x < width / 2; x++) {
      const i = (2 * y * width + 2 * x) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      const c = y * (width / 2) + x;
      frame[ySize + c] = clamp(128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256);
      frame[ySize + cSize + c] = clamp(128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256);
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  const parts: Buffer[] = [header];
  for (let f = 0; f < frames; f++) parts.push(Buffer.from('FRAME\n'), frame);
  return Buffer.concat(parts);
}

function clamp(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}
