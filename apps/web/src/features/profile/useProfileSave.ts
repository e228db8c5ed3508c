import { useCallback, useEffect, useRef, useState } from 'react';
import type { User } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { useSession } from '../session/session-context';
import { deletePicture, profileFailureText, requireToken, saveProfile } from './profile-api';
import { profileBody, type ProfileDraft } from './profile-body';
import type { PictureDraft } from './picture';
import { uploadPicture } from './picture-upload';

export interface ProfileSave {
  saving: boolean;
  /** 0..1 while a new picture uploads. */
  progress: number | null;
  error: string | null;
  /**
   * The picture first (upload or removal), then the profile. Resolves 'saved', or 'failed' with `error`
   * set; `pictureDone` tells the form the picture step went through, so a retry does not send it again.
   */
  save(
    user: User,
    draft: ProfileDraft,
    picture: PictureDraft,
    pictureDone: () => void,
  ): Promise<'saved' | 'failed'>;
  clearError(): void;
}

export function useProfileSave(): ProfileSave {
  const api = useApi();
  const platform = usePlatform();
  const { updateUser } = useSession();
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const save = useCallback<ProfileSave['save']>(
    async (user, draft, picture, pictureDone) => {
      setSaving(true);
      setError(null);
      // The server's answers replace the session's user; fields it may not repeat (access) are kept.
      let latest = user;
      const take = (answer: User) => {
        latest = { ...latest, ...answer };
        updateUser(latest);
      };
      try {
        const token = requireToken();
        if (picture.kind === 'new') {
          setProgress(0);
          const file = picture.file;
          take(
            await uploadPicture({
              baseUrl: platform.serverUrl,
              token,
              file,
              onProgress: (fraction) => mounted.current && setProgress(fraction),
            }),
          );
          pictureDone();
        } else if (picture.kind === 'remove') {
          take(await deletePicture(api));
          pictureDone();
        }
        take(await saveProfile(api, profileBody(latest, draft)));
        return 'saved';
      } catch (failure) {
        if (mounted.current) setError(profileFailureText(failure));
        return 'failed';
      } finally {
        if (mounted.current) {
          setSaving(false);
          setProgress(null);
        }
      }
    },
    [api, platform.serverUrl, updateUser],
  );

  return { saving, progress, error, save, clearError: useCallback(() => setError(null), []) };
}
