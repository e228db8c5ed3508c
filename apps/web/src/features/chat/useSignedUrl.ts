import { useEffect, useState } from 'react';
import { fileKeyFromUrl } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { absoluteUploadUrl } from '../upload/upload-api';
import { signedUrlCacheFor } from './signed-urls';

/** Never ask again more often than this, whatever expiry a URL claims. */
const MIN_RENEW_DELAY_MS = 5000;

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
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Signed URLs expire (1 h): a chat left open asks again a minute before, so images keep loading.
    const fetchUrl = () => {
      void cache.sign(key).then((url) => {
        if (!live) return;
        setSigned({ key, url });
        const renewAt = cache.renewAt(key);
        if (url && renewAt !== null)
          timer = setTimeout(fetchUrl, Math.max(MIN_RENEW_DELAY_MS, renewAt - Date.now()));
      });
    };
    fetchUrl();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [cache, key]);

  if (!key) return null;
  const url = signed?.key === key ? signed.url : cache.cached(key);
  // The local driver's URLs are this server's paths; an object store's (STORAGE=s3) are absolute already.
  return url ? absoluteUploadUrl(url, serverUrl) : null;
}
