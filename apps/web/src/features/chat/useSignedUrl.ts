import { useEffect, useState } from 'react';
import { fileKeyFromUrl } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { signedUrlCacheFor } from './signed-urls';

/**
 * A usable URL for a message's stable attachment path ('/files/<key>'): our own signed, expiring URL, or
 * null while it is being fetched, when it cannot be, or when the path is not one of our files (nothing from
 * elsewhere is ever loaded).
 */
export function useSignedUrl(attachmentUrl: string | null): string | null {
  const api = useApi();
  const { serverUrl } = usePlatform();
  const key = fileKeyFromUrl(attachmentUrl);
  const cache = signedUrlCacheFor(api);
  const [signed, setSigned] = useState<{ key: string; url: string | null } | null>(null);

  useEffect(() => {
    if (!key) return;
    let live = true;
    void cache.sign(key).then((url) => {
      if (live) setSigned({ key, url });
    });
    return () => {
      live = false;
    };
  }, [cache, key]);

  if (!key) return null;
  const url = signed?.key === key ? signed.url : cache.cached(key);
  return url ? `${serverUrl}${url}` : null;
}
