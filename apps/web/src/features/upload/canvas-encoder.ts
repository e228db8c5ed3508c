import type { DecodedImage, ImageDecoder } from './compress';

/** Draws `source` on a canvas of width × height and writes it as `type` (canvas.toBlob semantics). */
export function canvasBlob(
  source: CanvasImageSource,
  width: number,
  height: number,
  type: string,
  quality: number,
): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('No 2D canvas in this browser.'));
  // A transparent PNG written as JPEG would turn black where it was clear.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, width, height);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The image could not be encoded.'))),
      type,
      quality,
    );
  });
}

/** The browser's decoder: createImageBitmap (EXIF orientation applied) drawn on a canvas. */
export const decodeWithCanvas: ImageDecoder = async (file) => {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  const image: DecodedImage = {
    width: bitmap.width,
    height: bitmap.height,
    encode: (width, height, type, quality) => canvasBlob(bitmap, width, height, type, quality),
    close: () => bitmap.close(),
  };
  return image;
};
