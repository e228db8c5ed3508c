import path from 'node:path';
import sharp from 'sharp';
import { renderIdCard } from '../server/test/support/id-cards';
import { rgbToY4m } from './fake-camera';

/** A clean generated student ID whose name matches `firstName`, as a file the page can be given. */
export async function idCardFile(firstName: string, seed: number) {
  const card = await renderIdCard({
    seed,
    layout: 'ktm',
    format: 'jpeg',
    font: 'DejaVu Sans',
    width: 1400,
    rotateDeg: 0,
    noise: 0,
    blur: 0,
    contrast: 1,
    fields: { nama: `${firstName.toUpperCase()} PRATAMA` },
  });
  return { name: 'student-id.jpg', mimeType: card.contentType, buffer: card.bytes, fields: card.fields };
}

/** The same card as Chromium's fake camera plays it (a Y4M still), written to `file`. */
export async function idCardCamera(firstName: string, file: string): Promise<void> {
  const { buffer } = await idCardFile(firstName, 7);
  const width = 1280;
  const height = 800;
  const raw = await sharp(buffer)
    .resize(width, height, { fit: 'contain', background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const fs = await import('node:fs/promises');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, rgbToY4m(raw, width, height));
}
