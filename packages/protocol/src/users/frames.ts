import { z } from 'zod';
import { userRefSchema } from '../chat/entities';
import { userSchema } from '../entities/user';
import { changeFields } from '../realtime/frame-parts';

/**
 * A user's public card changed (their picture; their name if it ever becomes editable): sent to their own
 * devices and to their contacts, so every cached copy of the card (users, conversation rows, messages'
 * `from`) shows the new one. Carries the card only (a UserRef), never the e-mail or other private fields.
 */
export const userUpdatedChangeSchema = z.object({
  type: z.literal('user_updated'),
  ...changeFields,
  user: userRefSchema,
});

/**
 * The user's own full profile changed (a profile save, a picture, an admin's verification decision): sent
 * to their own devices only, so every device's signed-in user (badge, access, profile screen) follows at once.
 */
export const meUpdatedChangeSchema = z.object({
  type: z.literal('me_updated'),
  ...changeFields,
  user: userSchema,
});
export const userChangeSchemas = [userUpdatedChangeSchema, meUpdatedChangeSchema] as const;
