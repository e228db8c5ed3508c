import { PROFILE, PROFILE_MSG } from '@campus/protocol';

/** The picture in the edit form: unchanged, a new file (with its preview), or to be removed. */
export type PictureDraft =
  { kind: 'keep' } | { kind: 'new'; file: File; preview: string } | { kind: 'remove' };

/** The spec's two checks (section 5), made before anything is sent; the server makes them again. */
export function pictureProblem(file: File): string | null {
  if (file.size > PROFILE.maxPictureBytes) return PROFILE_MSG.pictureTooLarge;
  if (!file.type.startsWith('image/')) return PROFILE_MSG.pictureType;
  return null;
}

/** The preview, as an inline data URL (spec 000, section 5); the upload itself sends the file's bytes. */
export function readPreview(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('No preview'));
    reader.onerror = () => reject(reader.error ?? new Error('No preview'));
    reader.readAsDataURL(file);
  });
}
