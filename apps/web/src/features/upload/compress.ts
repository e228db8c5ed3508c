import { UPLOAD } from '@campus/protocol';

/** A decoded picture that can be drawn again at another size and written in another format. */
export interface DecodedImage {
  readonly width: number;
  readonly height: number;
  /**
   * The picture scaled to width × height, written as `type` at `quality`. Like canvas.toBlob, an encoder
   * that cannot write `type` answers another format (PNG): the caller reads the blob's type.
   */
  encode(width: number, height: number, type: string, quality: number): Promise<Blob>;
  close(): void;
}

/** Decodes an image file; injected so the ladder below is testable without a real canvas. */
export type ImageDecoder = (file: Blob) => Promise<DecodedImage>;

/** 0.8, 0.72, 0.64, 0.56: the spec's ladder, counted in whole steps so rounding never adds or drops one. */
export function qualityLadder(): number[] {
  const steps: number[] = [];
  for (let i = 0; ; i++) {
    const quality = Math.round((UPLOAD.startQuality - i * UPLOAD.qualityStep) * 100) / 100;
    if (quality < UPLOAD.minQuality) return steps;
    steps.push(quality);
  }
}

/** The size that keeps the aspect ratio with the longest side at most `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number = UPLOAD.maxSide) {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function renamed(name: string, type: string): string {
  const extension = type === 'image/webp' ? 'webp' : 'jpg';
  const base = name.replace(/\.[^./\\]*$/, '') || 'document';
  return `${base}.${extension}`;
}

/**
 * The spec's compression (section 9): an image above 120 KB is drawn with its longest side at most 2000 px
 * and written at quality 0.8, then 0.72, 0.64 and 0.56 until it is under 800 KB; WebP when the encoder can
 * write it, otherwise JPEG. A PDF, a small image, or a result no smaller than the original is kept as it was.
 */
export async function compressImage(file: File, decode: ImageDecoder): Promise<File> {
  if (!file.type.startsWith('image/') || file.size <= UPLOAD.compressAboveBytes) return file;
  const image = await decode(file);
  try {
    const size = fitWithin(image.width, image.height);
    let type = 'image/webp';
    let best: Blob | null = null;
    for (const quality of qualityLadder()) {
      let blob = await image.encode(size.width, size.height, type, quality);
      if (blob.type !== type && type === 'image/webp') {
        // No WebP encoder here (Safari before 17): JPEG from this step on.
        type = 'image/jpeg';
        blob = await image.encode(size.width, size.height, type, quality);
      }
      if (blob.type !== type) break;
      best = blob;
      if (blob.size <= UPLOAD.targetBytes) break;
    }
    if (!best || best.size >= file.size) return file;
    return new File([best], renamed(file.name, type), { type, lastModified: file.lastModified });
  } finally {
    image.close();
  }
}
