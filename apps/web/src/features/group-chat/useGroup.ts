import { useEffect, useState } from 'react';
import { useLiveRows } from '../../lib/useLiveRows';
import { groupSchema, type Group } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { useSync } from '../sync/sync-context';

/**
 * The group from the cache; when the cache does not have it (a link opened before sync caught up), from
 * `GET /api/groups/:id`. undefined while looking, null when neither has it.
 */
export function useGroup(groupId: string): Group | null | undefined {
  const { db } = useSync();
  const api = useApi();
  const cached = useLiveRows(async () => (await db.groups.get(groupId)) ?? null, [db, groupId]);
  const [fetched, setFetched] = useState<Group | null | undefined>(undefined);

  useEffect(() => {
    if (cached !== null) return;
    const controller = new AbortController();
    api
      .get(`/api/groups/${encodeURIComponent(groupId)}`, groupSchema, { signal: controller.signal })
      .then(setFetched, () => {
        if (!controller.signal.aborted) setFetched(null);
      });
    return () => controller.abort();
  }, [api, cached, groupId]);

  if (cached === undefined) return undefined;
  return cached ?? fetched;
}
