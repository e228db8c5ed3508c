import { describe, expect, it, vi } from 'vitest';
import { UPLOAD, UPLOAD_MSG } from '@campus/protocol';
import {
  compressImage,
  fitWithin,
  qualityLadder,
  type DecodedImage,
  type ImageDecoder,
} from '../src/features/upload/compress';
import { prepareFile } from '../src/features/upload/prepare-file';

const KB = 1024;
const file = (name: string, type: string, size: number) =>
  new File([new Uint8Array(size)], name, { type, lastModified: 1 });

interface Call {
  width: number;
  height: number;
  type: string;
  quality: number;
}

/**
 * A decoder whose encoder answers `sizeAt(quality)` bytes; `webp: false` writes PNG when asked for WebP,
 * as canvas.toBlob does in a browser without a WebP encoder.
 */
function fakeDecoder(
  width: number,
  height: number,
  sizeAt: (quality: number) => number,
  webp = true,
): { decode: ImageDecoder; calls: Call[]; closed: () => boolean } {
  const calls: Call[] = [];
  let closed = false;
  const image: DecodedImage = {
    width,
    height,
    async encode(w, h, type, quality) {
      calls.push({ width: w, height: h, type, quality });
      const written = type === 'image/webp' && !webp ? 'image/png' : type;
      return new Blob([new Uint8Array(sizeAt(quality))], { type: written });
    },
    close: () => {
      closed = true;
    },
  };
  return { decode: vi.fn(async () => image), calls, closed: () => closed };
}

describe('compression of the student ID picture', () => {
  it('walks quality 0.8 down to 0.5 in steps of 0.08', () => {
    expect(qualityLadder()).toEqual([0.8, 0.72, 0.64, 0.56]);
    expect(Math.min(...qualityLadder())).toBeGreaterThanOrEqual(UPLOAD.minQuality);
  });

  it('keeps the longest side at most 2000 px, in either orientation, and never enlarges', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 2000, height: 1500 });
    expect(fitWithin(1500, 6000)).toEqual({ width: 500, height: 2000 });
    expect(fitWithin(1200, 800)).toEqual({ width: 1200, height: 800 });
  });

  it('leaves pictures up to 120 KB (and PDFs) alone', async () => {
    const fake = fakeDecoder(4000, 3000, () => 10 * KB);
    const small = file('id.jpg', 'image/jpeg', UPLOAD.compressAboveBytes);
    expect(await compressImage(small, fake.decode)).toBe(small);
    const pdf = file('id.pdf', 'application/pdf', 1500 * KB);
    expect(await compressImage(pdf, fake.decode)).toBe(pdf);
    expect(fake.decode).not.toHaveBeenCalled();
  });

  it('writes WebP at 2000 px, lowering the quality until it is under 800 KB', async () => {
    const sizes: Record<number, number> = { 0.8: 1200 * KB, 0.72: 900 * KB, 0.64: 700 * KB, 0.56: 500 * KB };
    const fake = fakeDecoder(4000, 3000, (q) => sizes[q]!);
    const result = await compressImage(file('card.photo.png', 'image/png', 1900 * KB), fake.decode);
    expect(fake.calls).toEqual([
      { width: 2000, height: 1500, type: 'image/webp', quality: 0.8 },
      { width: 2000, height: 1500, type: 'image/webp', quality: 0.72 },
      { width: 2000, height: 1500, type: 'image/webp', quality: 0.64 },
    ]);
    expect(result.type).toBe('image/webp');
    expect(result.name).toBe('card.photo.webp');
    expect(result.size).toBe(700 * KB);
    expect(fake.closed()).toBe(true);
  });

  it('falls back to JPEG where the browser cannot write WebP', async () => {
    const fake = fakeDecoder(2400, 1600, (q) => (q > 0.75 ? 900 * KB : 600 * KB), false);
    const result = await compressImage(file('id.png', 'image/png', 1500 * KB), fake.decode);
    expect(fake.calls.map((c) => [c.type, c.quality])).toEqual([
      ['image/webp', 0.8],
      ['image/jpeg', 0.8],
      ['image/jpeg', 0.72],
    ]);
    expect(result.type).toBe('image/jpeg');
    expect(result.name).toBe('id.jpg');
    expect(result.size).toBe(600 * KB);
  });

  it('stops at the lowest quality when the target is never reached, and keeps a smaller original', async () => {
    const stubborn = fakeDecoder(3000, 3000, () => 1000 * KB);
    const result = await compressImage(file('id.jpg', 'image/jpeg', 1800 * KB), stubborn.decode);
    expect(stubborn.calls.map((c) => c.quality)).toEqual([0.8, 0.72, 0.64, 0.56]);
    expect(result.size).toBe(1000 * KB);

    const bigger = fakeDecoder(1000, 800, () => 300 * KB);
    const original = file('id.jpg', 'image/jpeg', 200 * KB);
    expect(await compressImage(original, bigger.decode)).toBe(original);
  });
});

describe('file checks (section 5)', () => {
  const never: ImageDecoder = () => Promise.reject(new Error('cannot decode'));

  it('refuses other types before anything else', async () => {
    for (const wrong of [file('id.gif', 'image/gif', 10 * KB), file('id.txt', 'text/plain', 10)]) {
      expect(await prepareFile(wrong, never)).toEqual({ ok: false, error: UPLOAD_MSG.fileType });
    }
  });

  it('refuses more than 2 MB after compression, and keeps a picture it cannot decode as it is', async () => {
    const bigPdf = file('id.pdf', 'application/pdf', UPLOAD.maxBytes + 1);
    expect(await prepareFile(bigPdf, never)).toEqual({ ok: false, error: UPLOAD_MSG.fileTooLarge });
    const bigPhoto = file('id.jpg', 'image/jpeg', 3 * 1024 * KB);
    expect(await prepareFile(bigPhoto, never)).toEqual({ ok: false, error: UPLOAD_MSG.fileTooLarge });
    // The same photo compressed below the limit is accepted.
    const shrinks = fakeDecoder(4000, 3000, () => 700 * KB);
    const prepared = await prepareFile(bigPhoto, shrinks.decode);
    expect(prepared.ok && prepared.file.size).toBe(700 * KB);
    const pdf = file('id.pdf', 'application/pdf', UPLOAD.maxBytes);
    expect(await prepareFile(pdf, never)).toEqual({ ok: true, file: pdf });
  });
});
