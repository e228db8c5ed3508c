import { createHash, createHmac } from 'node:crypto';
import { PROFILE, PROFILE_MSG } from '@campus/protocol';
import { HttpError } from '../../lib/http-error';
import { sniffContent } from '../../lib/storage/sniff';

/** Decoding bombs: a 2 MB file may still claim gigapixels; sharp refuses inputs larger than this. */
const MAX_INPUT_PIXELS = 40_000_000;

/** The app path of the avatars' public route (see routes.ts for why it is public). */
export const AVATAR_ROUTE = '/files/avatars';

/**
 * The storage key of one version of a user's picture: tied to the user and the content's hash, and
 * unguessable without the installation's secret, in the storage drivers' key format (32 hex digits). One
 * object per version, never overwritten: two uploads racing each store their own, and the URL saved last
 * names bytes that are there (the one it replaced is deleted after it). Without a version: the one key per
 * user of pictures stored before versions had keys of their own (still served, deleted on the next change).
 */
export function avatarKey(secret: Buffer, userId: string, version?: string): string {
  const name = version === undefined ? `profile-picture:${userId}` : `profile-picture:${userId}:${version}`;
  return createHmac('sha256', secret).update(name).digest('hex').slice(0, 32);
}

/** The URL stored in `profile_picture_url`: the public route, cache-busted by the content's hash. */
export function avatarUrl(userId: string, version: string): string {
  return `${AVATAR_ROUTE}/${encodeURIComponent(userId)}?v=${version}`;
}

/** The version a stored `profile_picture_url` of the user names, if it is one of ours. */
export function avatarVersionOf(userId: string, url: string | null | undefined): string | undefined {
  const prefix = avatarUrl(userId, '');
  return url?.startsWith(prefix) ? url.slice(prefix.length) : undefined;
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
