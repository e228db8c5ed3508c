import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OCR_INPUT, OcrInputError } from '../src/lib/ocr';
import { prepareForOcr } from '../src/lib/ocr/preprocess';
import { pngBomb } from './support/id-cards';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 120, g: 130, b: 140 } } });

describe('prepareForOcr refuses hostile input', () => {
  it('refuses a decompression bomb from its header: quickly, without decoding it', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(OCR_INPUT.maxBytes);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    await expect(prepareForOcr(bomb)).rejects.toBeInstanceOf(OcrInputError);
    expect(performance.now() - started).toBeLessThan(1000);
    // Decoding would take 400 MB at one byte per pixel; the header read takes next to nothing.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses formats other than JPEG, PNG and WebP, even ones sharp could open', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><text y="50">Nama : X</text></svg>',
    );
    await expect(prepareForOcr(svg)).rejects.toBeInstanceOf(OcrInputError);
    await expect(prepareForOcr(await photo(300, 200).gif().toBuffer())).rejects.toBeInstanceOf(OcrInputError);
    await expect(prepareForOcr(await photo(300, 200).tiff().toBuffer())).rejects.toBeInstanceOf(
      OcrInputError,
    );
  });

  it('refuses garbage, truncated images and files over 2 MB', async () => {
    await expect(prepareForOcr(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(OcrInputError);
    const jpeg = await photo(1200, 800).jpeg().toBuffer();
    await expect(prepareForOcr(jpeg.subarray(0, 200))).rejects.toBeInstanceOf(OcrInputError);
    await expect(prepareForOcr(new Uint8Array(OCR_INPUT.maxBytes + 1))).rejects.toBeInstanceOf(OcrInputError);
  });
});

describe('prepareForOcr', () => {
  it('scales the long side into [1400, 2000] px and makes the image grey', async () => {
    const big = await sharp(await prepareForOcr(await photo(6000, 4000).jpeg().toBuffer())).metadata();
    expect([big.width, big.height, big.channels]).toEqual([2000, 1333, 1]);
    const small = await sharp(await prepareForOcr(await photo(500, 320).png().toBuffer())).metadata();
    expect([small.width, small.height]).toEqual([1400, 896]);
    const mid = await sharp(await prepareForOcr(await photo(1600, 1000).webp().toBuffer())).metadata();
    expect([mid.width, mid.height]).toEqual([1600, 1000]);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    // Stored landscape, to be shown rotated 90° (orientation 6), as phones store portrait shots.
    const sideways = await photo(1800, 1200).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const upright = await sharp(await prepareForOcr(sideways)).metadata();
    expect([upright.width, upright.height]).toEqual([1200, 1800]);
  });
});
