import { z } from 'zod';

/** Stored files are named by random keys: 32 lowercase hex characters, never a user-chosen name or path. */
export const FILE_KEY_PATTERN = /^[0-9a-f]{32}$/;
export const fileKeySchema = z.string().regex(FILE_KEY_PATTERN);

/** How long a signed download URL stays valid. Clients ask again when it has run out. */
export const SIGNED_FILE_URL_TTL_SECONDS = 60 * 60;

/** `POST /api/files/sign`: trade stable file keys for signed, expiring download URLs. */
export const signFilesBodySchema = z.object({
  keys: z.array(fileKeySchema).min(1).max(100),
});
export type SignFilesBody = z.infer<typeof signFilesBodySchema>;

/**
 * Only keys the caller may see get a URL (a member of the pair or group the file was sent to);
 * the others are absent. URLs are server-relative with the local storage driver
 * (`/files/<key>?exp=<unix seconds>&sig=<hex>`) and absolute presigned GET URLs with STORAGE=s3.
 */
export const signFilesResponseSchema = z.object({
  urls: z.record(z.string(), z.string()),
});
export type SignFilesResponse = z.infer<typeof signFilesResponseSchema>;

/** The key of a message's stable `attachmentUrl` ('/files/<key>'), or null when it is not one of ours. */
export function fileKeyFromUrl(url: string | null | undefined): string | null {
  const match = /^\/files\/([0-9a-f]{32})$/.exec(url ?? '');
  return match?.[1] ?? null;
}
