import zlib from 'node:zlib';
import sharp, { type OverlayOptions } from 'sharp';
import { UPLOAD, type OcrResult } from '@campus/protocol';
import { englishText, ktmText, pick, seededRandom, type CardText } from './id-card-data';

export { seededRandom } from './id-card-data';

/**
 * Student-ID card images for the text-recognition tests, the benchmark and other features' tests (upload,
 * e2e): drawn as SVG and rasterised with `sharp` (librsvg + fontconfig), so no binary fixtures. Everything not
 * given in the options is picked from `seed`, deterministically: the same seed gives the same card bytes.
 *
 * Fonts: the DejaVu families of fonts-dejavu-core/extra, present on CI and on these machines.
 */

export type IdCardLayout = 'ktm' | 'english';
export type IdCardFormat = 'jpeg' | 'png' | 'webp';

export interface IdCardOptions {
  /** Picks whatever is not given below (default 1). */
  seed?: number;
  layout?: IdCardLayout;
  format?: IdCardFormat;
  /** A fontconfig family name, e.g. 'DejaVu Serif'. */
  font?: string;
  /** Card width in px (the height follows the ID-1 card ratio); 900–1500 when picked. */
  width?: number;
  /** Rotation in degrees (the card photographed slightly askew); ±2 when picked. */
  rotateDeg?: number;
  /** Per-pixel noise amplitude, 0–40 (grey levels); picked 0–14. */
  noise?: number;
  /** Contrast of a dim or washed-out photo: 1 keeps the print's, 0.5 halves it (darker, greyer); picked 0.55–1. */
  contrast?: number;
  /** Gaussian blur sigma, 0 (none) or ≥ 0.3; picked 0–0.8. */
  blur?: number;
  /** Fields to print instead of picked ones. */
  fields?: Partial<OcrResult>;
  /** The photo placeholder (a noisy picture, so the file passes the spec's 50 KB "has a photo" check). */
  photo?: boolean;
}

export interface IdCard {
  bytes: Buffer;
  /** What is printed on the card: the recognition's expected answer. */
  fields: OcrResult;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  /** The options actually used (picked values filled in), for messages when a card is misread. */
  options: Required<Omit<IdCardOptions, 'fields'>>;
}

export const ID_CARD_FONTS = [
  'DejaVu Sans',
  'DejaVu Serif',
  'DejaVu Sans Mono',
  'DejaVu Sans Condensed',
  'DejaVu Serif Condensed',
] as const;

const FORMATS: readonly IdCardFormat[] = ['jpeg', 'png', 'webp'];

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function cardSvg(text: CardText, width: number, font: string, photoBox: Box, rand: () => number): string {
  const height = Math.round(width * 0.63);
  const u = width / 100;
  const band = pick(rand, ['#0b3d91', '#7a1020', '#115e3b', '#3b2a7a']);
  // Long names ("NATIONAL INSTITUTE OF TECHNOLOGY KARNATAKA") shrink to fit the card, as printers do.
  const headingSize = Math.min(u * 4.2, (u * 92) / (text.campusLine.length * 0.8));
  const labelWidth = text.rows.reduce((m, [label]) => Math.max(m, label.length), 0);
  const x = photoBox.left + photoBox.width + u * 4;
  // The rows shrink until the longest value fits on the card (0.62 em: the widest of these fonts' averages).
  const valueWidth = text.rows.reduce((m, [, value]) => Math.max(m, value.length), 0) + 2;
  const size = Math.min(
    u * (3.1 + rand() * 0.5),
    (width - u * 3 - x) / (0.62 * (labelWidth + 1.5 + valueWidth)),
  );
  const valueX = x + size * 0.62 * (labelWidth + 1.5);
  const rows = text.rows
    .map(([label, value], i) => {
      const y = u * 27 + i * size * 1.9;
      return (
        `<text x="${x}" y="${y}" font-size="${size}">${escapeXml(label)}</text>` +
        `<text x="${valueX}" y="${y}" font-size="${size}">: ${escapeXml(value)}</text>`
      );
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="#f7f5ef"/>` +
    `<rect width="100%" height="${u * 17}" fill="${band}"/>` +
    `<g font-family="${escapeXml(font)}" fill="#fff" text-anchor="middle">` +
    `<text x="${width / 2}" y="${u * 6.5}" font-size="${headingSize}" font-weight="bold">${escapeXml(text.campusLine)}</text>` +
    `<text x="${width / 2}" y="${u * 10.8}" font-size="${u * 2.6}">${escapeXml(text.subLine)}</text>` +
    `<text x="${width / 2}" y="${u * 15}" font-size="${u * 3}" font-weight="bold">${escapeXml(text.title)}</text></g>` +
    `<g font-family="${escapeXml(font)}" fill="#111">${rows}` +
    `<text x="${x}" y="${height - u * 3}" font-size="${u * 2.4}" fill="#444">${escapeXml(text.footer)}</text></g>` +
    `<rect x="0" y="${height - u * 1.2}" width="100%" height="${u * 1.2}" fill="${band}"/></svg>`
  );
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A "photo": blurred colour noise with a head-and-shoulders silhouette, as incompressible as a real one. */
async function photo(box: Box, rand: () => number): Promise<Buffer> {
  const { width, height } = box;
  const raw = Buffer.alloc(width * height * 3);
  const base = [120 + rand() * 80, 100 + rand() * 80, 90 + rand() * 80];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = (x - width / 2) / width;
      const head = dx * dx + ((y - height * 0.38) / height) ** 2 < 0.045;
      const body = y > height * 0.68 && Math.abs(dx) < 0.42;
      const i = (y * width + x) * 3;
      for (let ch = 0; ch < 3; ch++) {
        const tone = head ? 200 : body ? 60 : base[ch]!;
        raw[i + ch] = Math.max(0, Math.min(255, tone + (rand() - 0.5) * 140));
      }
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.4)
    .png()
    .toBuffer();
}

function addNoise(raw: Buffer, amplitude: number, rand: () => number): void {
  if (amplitude <= 0) return;
  for (let i = 0; i < raw.length; i++) {
    raw[i] = Math.max(0, Math.min(255, raw[i]! + (rand() - 0.5) * 2 * amplitude));
  }
}

/** Squeezes the grey levels towards a dark grey, as a photo taken in poor light does. */
function dim(raw: Buffer, contrast: number): void {
  if (contrast >= 1) return;
  const offset = 90 * (1 - contrast);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.round(offset + raw[i]! * contrast * 0.9);
}

/** Renders one card. */
export async function renderIdCard(options: IdCardOptions = {}): Promise<IdCard> {
  const seed = options.seed ?? 1;
  const rand = seededRandom(seed);
  const used: IdCard['options'] = {
    seed,
    layout: options.layout ?? pick(rand, ['ktm', 'english'] as const),
    format: options.format ?? pick(rand, FORMATS),
    font: options.font ?? pick(rand, ID_CARD_FONTS),
    width: options.width ?? 900 + Math.round(rand() * 600),
    rotateDeg: options.rotateDeg ?? Math.round((rand() * 4 - 2) * 10) / 10,
    noise: options.noise ?? Math.round(rand() * 14),
    contrast: options.contrast ?? pick(rand, [1, 1, 0.8, 0.65, 0.55]),
    blur: options.blur ?? pick(rand, [0, 0, 0.4, 0.6, 0.8]),
    photo: options.photo ?? true,
  };
  const text =
    used.layout === 'ktm' ? ktmText(rand, options.fields ?? {}) : englishText(rand, options.fields ?? {});
  const width = used.width;
  const height = Math.round(width * 0.63);
  const u = width / 100;
  const photoBox: Box = {
    left: Math.round(u * 4),
    top: Math.round(u * 21),
    width: Math.round(u * 22),
    height: Math.round(u * 28),
  };

  const layers: OverlayOptions[] = used.photo
    ? [{ input: await photo(photoBox, rand), left: photoBox.left, top: photoBox.top }]
    : [];
  const flat = await sharp(Buffer.from(cardSvg(text, width, used.font, photoBox, rand)))
    .composite(layers)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  addNoise(flat.data, used.noise, rand);
  dim(flat.data, used.contrast);

  // A margin of table around the card, then the small rotation of a hand-held photo.
  let image = sharp(flat.data, { raw: { width, height, channels: 3 } })
    .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#8a8178' })
    .rotate(used.rotateDeg, { background: '#8a8178' });
  if (used.blur >= 0.3) image = sharp(await image.png().toBuffer()).blur(used.blur);
  let bytes =
    used.format === 'jpeg'
      ? await image.jpeg({ quality: 85 }).toBuffer()
      : used.format === 'png'
        ? await image.png({ compressionLevel: 9 }).toBuffer()
        : await image.webp({ quality: 92 }).toBuffer();
  // A noisy full-colour PNG can pass the 2 MB upload limit; a palette PNG (what a screenshot tool or the
  // client's own compression would make of it) stays under.
  if (bytes.length > UPLOAD.maxBytes * 0.9)
    bytes = await sharp(bytes).png({ palette: true, quality: 90 }).toBuffer();
  return { bytes, fields: text.fields, contentType: `image/${used.format}`, options: used };
}

/** `count` varied cards from consecutive seeds, alternating the layouts and cycling the formats and fonts. */
export async function renderIdCards(count: number, firstSeed = 1000): Promise<IdCard[]> {
  const cards: IdCard[] = [];
  for (let i = 0; i < count; i++) {
    cards.push(
      await renderIdCard({
        seed: firstSeed + i,
        layout: i % 2 === 0 ? 'ktm' : 'english',
        format: FORMATS[i % FORMATS.length],
        font: ID_CARD_FONTS[i % ID_CARD_FONTS.length],
      }),
    );
  }
  return cards;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid 1-bit PNG of 20000 × 20000 (400 megapixels: 1.6 GB as RGBA) whose
 * white rows deflate to ~50 KB. Building it holds its 50 MB of packed rows once, in the test.
 */
/** Hostile input for the upload and recognition tests. */
export function pngBomb(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(side / 8), 0xff);
  row[0] = 0; // filter: none
  const rows = Buffer.alloc(row.length * side);
  for (let y = 0; y < side; y++) row.copy(rows, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
