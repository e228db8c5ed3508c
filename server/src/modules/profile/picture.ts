import { createHash, createHmac } from 'node:crypto';
import { PROFILE, PROFILE_MSG } from '@campus/protocol';
import { HttpError } from '../../lib/http-error';
import { sniffContent } from '../../lib/storage/sniff';

/** Decoding bombs: a 2 MB file may still claim gigapixels; sharp refuses inputs larger than this. */
const MAX_INPUT_PIXELS = 40_000_000;

/** The app path of the avatars' public route (see routes.ts for why it is public). */
export const AVATAR_ROUTE = '/files/avatars';

/**
 * The storage key of a user's picture: tied to the user (one per user, replaced on each upload) and
 * unguessable without the installation's secret, in the storage drivers' key format (32 hex digits).
 */
export function avatarKey(secret: Buffer, userId: string): string {
  return createHmac('sha256', secret).update(`profile-picture:${userId}`).digest('hex').slice(0, 32);
}

/** The URL stored in `profile_picture_url`: the public route, cache-busted by the content's hash. */
export function avatarUrl(userId: string, version: string): string {
  return `${AVATAR_ROUTE}/${encodeURIComponent(userId)}?v=${version}`;
}

export interface Picture {
  bytes: Buffer;
  version: string;
}

/**
 * Checks the upload is an image by its bytes (never its name or declared type), then re-encodes it as a
 * 512 px square WebP: turned upright by its EXIF orientation, centre-cropped, every metadata block (EXIF,
 * GPS, XMP, ICC) dropped. 415 when it is not an image or sharp cannot decode it.
 */
export async function processPicture(bytes: Uint8Array): Promise<Picture> {
  if (bytes.length === 0) throw new HttpError(400, PROFILE_MSG.pictureMissing);
  if (bytes.length > PROFILE.maxPictureBytes) throw new HttpError(413, PROFILE_MSG.pictureTooLarge);
  if (sniffContent(bytes, '')?.kind !== 'image') throw new HttpError(415, PROFILE_MSG.pictureType);
  // Loaded on the first picture, not at start: sharp and libvips add ~3 MB of heap and more of native memory.
  const { default: sharp } = await import('sharp');
  let out: Buffer;
  try {
    out = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(PROFILE.pictureSize, PROFILE.pictureSize, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new HttpError(415, PROFILE_MSG.pictureType);
  }
  const version = createHash('sha256').update(out).digest('hex').slice(0, 16);
  return { bytes: out, version };
}
