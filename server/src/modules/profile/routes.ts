import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PROFILE, PROFILE_MSG, SERVER_MSG, profileUpdateSchema } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { selfUser } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readFileField } from '../../lib/http/multipart-file';
import { readBody } from '../../lib/validate';
import { AVATAR_ROUTE, avatarKey, avatarUrl, avatarVersionOf, processPicture } from './picture';
import { pictureUrlOf, setPictureUrl, userById } from './repo';
import { manualCollegeOf, updateProfile } from './service';
import { userRefsOf } from '../users';
import { emitMeUpdated, emitUserUpdated } from './sync';

const HOUR = 60 * 60_000;
/** Profile saves per user: far above a student editing their profile, low enough to stop a script. */
export const PROFILE_SAVE_RATE = { limit: 30, windowMs: HOUR };
/** Picture uploads and removals per user: each one decodes and re-encodes an image. */
export const PROFILE_PICTURE_RATE = { limit: 10, windowMs: HOUR };
/** Colleges typed in by hand per user: each adds a row to the list admins review. */
export const MANUAL_COLLEGE_RATE = { limit: 5, windowMs: 24 * HOUR };

/** The picture upload is exempt from the 64 KB JSON limit of /api/* (app.ts); it has its own below. */
export const PROFILE_PICTURE_PATH = /^\/api\/users\/profile\/picture\/?$/;

/** Room for a multipart envelope around a picture of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const pictureBodyLimit = bodyLimit({
  maxSize: PROFILE.maxPictureBytes + MULTIPART_OVERHEAD,
  // The rest of the body is never read: close the connection rather than leave it unusable.
  onError: (c) => c.json({ error: PROFILE_MSG.pictureTooLarge }, 413, { Connection: 'close' }),
});

/**
 * The picture's bytes: the raw request body (any declared type; the bytes decide), or the `picture` file
 * of a multipart form.
 */
async function readPicture(c: Context): Promise<Uint8Array> {
  if ((c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    const file = await readFileField(c, {
      field: 'picture',
      maxBytes: PROFILE.maxPictureBytes,
      missing: PROFILE_MSG.pictureMissing,
      tooLarge: PROFILE_MSG.pictureTooLarge,
    });
    return new Uint8Array(await file.arrayBuffer());
  }
  return new Uint8Array(await c.req.arrayBuffer());
}

/**
 * - `PUT /api/users/profile`: the edited profile (spec 000, section 7); answers the updated user.
 * - `PUT /api/users/profile/picture`: the picture's bytes (at most 2 MB, an image by its content), stored
 *   re-encoded as a 512 px WebP; answers the updated user. `DELETE` removes it (initials again).
 * - `GET /files/avatars/:userId?v=`: the picture. Public, unlike attachments' signed `/files/:key`: an
 *   avatar is shown to every student beside the user's name (chat, groups, friends, directory), the URL is
 *   stored in the user row and copied into user refs, change-log payloads and clients' caches, so an
 *   expiring signature would leave those copies broken. `v` is the content's hash: the URL changes with the
 *   picture, so it is cached for long. The route reads only a key derived from a user's id, never a key
 *   from the request, so no attachment is reachable through it.
 */
export function profileRoutes(deps: AppDeps) {
  const saves = deps.rates.limiter('profile.save', PROFILE_SAVE_RATE);
  const pictures = deps.rates.limiter('profile.picture', PROFILE_PICTURE_RATE);
  const manualColleges = deps.rates.limiter('profile.manual-college', MANUAL_COLLEGE_RATE);
  const notFound = () => new HttpError(404, SERVER_MSG.notFound);
  const refs = userRefsOf(deps);
  const policy = deps.config.verificationPolicy;

  /**
   * Stores the picture URL; when it changed, the card's change (to contacts) and `me_updated` (to the user's
   * devices) go out in the same commit. Answers the user as shown to themselves.
   */
  /** Saves the URL; the user, and the URL it replaced (read in the same transaction). */
  async function savePictureUrl(userId: string, url: string | null) {
    const saved = await deps.transactor.commit(async (tx) => {
      const before = await tx.first(pictureUrlOf, userId);
      if (!before) return undefined;
      await tx.run(setPictureUrl, url, userId);
      const after = await tx.first(userById, userId);
      if (!after) return undefined;
      const previous = before.profile_picture_url;
      if (previous === url) return { user: selfUser(after, policy), previous };
      await emitUserUpdated(tx, refs, after);
      return { user: await emitMeUpdated(tx, after, policy), previous };
    });
    refs.forget(userId);
    return saved;
  }

  /**
   * The picture a save replaced (each save's `previous` is what it overwrote, so this is never the one now
   * saved, whatever order racing uploads commit in), and a picture stored before versions had keys.
   */
  async function deleteReplaced(userId: string, previous: string | null, kept?: string): Promise<void> {
    const version = avatarVersionOf(userId, previous);
    if (version !== undefined && version !== kept)
      await deps.storage.delete(avatarKey(deps.secret, userId, version));
    if (previous !== null) await deps.storage.delete(avatarKey(deps.secret, userId));
  }

  const api = new Hono<AuthEnv>()
    .use(requireUser(deps))
    .put('/', async (c) => {
      const userId = c.get('user').id;
      await saves.consume(userId);
      const update = await readBody(c, profileUpdateSchema);
      // Each college typed in by hand lands in the admins' list of manual colleges: a few a day per student.
      if (update.college && manualCollegeOf(update.college)) await manualColleges.consume(userId);
      // No `user_updated`: none of the editable fields (course, bio, year, college, and focused talk's
      // interests, skill level and branch) is on the public card; `me_updated` carries the save to the user's
      // other devices, in the same commit (and random talk's cache of online profiles hears it there).
      return c.json(
        await deps.transactor.commit(async (tx) =>
          emitMeUpdated(tx, await updateProfile(tx, userId, update), policy),
        ),
      );
    })
    .put('/picture', pictureBodyLimit, async (c) => {
      const userId = c.get('user').id;
      await pictures.consume(userId);
      const picture = await processPicture(await readPicture(c));
      const key = avatarKey(deps.secret, userId, picture.version);
      await deps.storage.put(key, picture.bytes, 'image/webp');
      const saved = await savePictureUrl(userId, avatarUrl(userId, picture.version));
      if (!saved) {
        await deps.storage.delete(key);
        throw new HttpError(401, SERVER_MSG.unauthorized);
      }
      await deleteReplaced(userId, saved.previous, picture.version);
      return c.json(saved.user);
    })
    .delete('/picture', async (c) => {
      const userId = c.get('user').id;
      await pictures.consume(userId);
      const saved = await savePictureUrl(userId, null);
      if (!saved) throw new HttpError(401, SERVER_MSG.unauthorized);
      await deleteReplaced(userId, saved.previous);
      return c.json(saved.user);
    });

  const avatars = new Hono().get('/:userId', async (c) => {
    const userId = c.req.param('userId');
    const row = await deps.transactor.read((tx) => tx.first(pictureUrlOf, userId));
    const version = avatarVersionOf(userId, row?.profile_picture_url);
    if (version === undefined) throw notFound();
    const file =
      (await deps.storage.get(avatarKey(deps.secret, userId, version))) ??
      (await deps.storage.get(avatarKey(deps.secret, userId)));
    if (!file) throw notFound();
    const current = c.req.query('v') === version;
    return c.body(file.body, 200, {
      'Content-Type': 'image/webp',
      'Content-Length': String(file.size),
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
      // An old `v` gets today's picture, which must not stay cached under the old URL.
      'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });

  return new Hono().route('/api/users/profile', api).route(AVATAR_ROUTE, avatars);
}
