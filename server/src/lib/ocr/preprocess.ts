import type { Metadata } from 'sharp';
import { UPLOAD } from '@campus/protocol';

export const OCR_INPUT = {
  /** The upload limit: anything larger never reaches the decoder. */
  maxBytes: UPLOAD.maxBytes,
  /**
   * Decoded size refused before decoding: a 48 MP phone photo passes, a "decompression bomb" (a small PNG
   * declaring 20000 × 20000) is refused from its header, before any pixel memory is taken.
   */
  maxPixels: 50_000_000,
  /** Text of an ID card photographed whole is 20–40 px high at this size: tesseract's comfortable range. */
  maxSide: 2000,
  /** Smaller images are enlarged to this: tesseract misreads text under ~15 px high. */
  minSide: 1400,
} as const;

/** A refused or undecodable image (the caller answers 422, not 500). */
export class OcrInputError extends Error {}

const FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * An uploaded photo of a card → the grey PNG tesseract reads. Rotated by its EXIF orientation (phones
 * store portrait shots sideways), scaled so the long side is within [minSide, maxSide], grey, and its
 * levels stretched (normalise: a dim or washed-out photo gets the contrast of a scan). No deskew here:
 * tesseract's page layout analysis follows the slight tilt of a hand-held photo by itself (measured on the
 * ±2° generated cards), and a real deskew would need a Hough transform per image.
 */
export async function prepareForOcr(image: Uint8Array): Promise<Buffer> {
  if (image.byteLength > OCR_INPUT.maxBytes) throw new OcrInputError('image too large');
  // Loaded on the first document, not at start (as profile/picture.ts).
  const { default: sharp } = await import('sharp');
  const input = () => sharp(image, { limitInputPixels: OCR_INPUT.maxPixels, sequentialRead: true });
  let meta: Metadata;
  try {
    meta = await input().metadata();
  } catch {
    throw new OcrInputError('not a readable image');
  }
  // Only the upload's own formats: sharp would also open SVG, TIFF, HEIF or PDF through other decoders.
  if (!meta.format || !FORMATS.has(meta.format)) throw new OcrInputError('unsupported image format');
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels || pixels > OCR_INPUT.maxPixels) throw new OcrInputError('image dimensions out of range');

  const longSide = Math.max(meta.width ?? 0, meta.height ?? 0);
  const target = Math.min(OCR_INPUT.maxSide, Math.max(OCR_INPUT.minSide, longSide));
  try {
    return await input()
      .rotate()
      // A square box with `inside`: the long side becomes `target`, whatever the orientation.
      .resize({ width: target, height: target, fit: 'inside' })
      .grayscale()
      .normalise()
      // One channel: a third of the bytes for tesseract to decode (grayscale() alone keeps three).
      .toColourspace('b-w')
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    throw new OcrInputError('not a readable image');
  }
}
