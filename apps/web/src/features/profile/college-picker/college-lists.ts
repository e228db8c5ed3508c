import { collegeListSchema } from '@campus/protocol';
import type { ApiClient } from '../../../lib/api';
import { EMPTY_INDEX, indexColleges, type CollegeIndex } from './college-index';

/**
 * Lists already loaded in this page, per API client and path: going back to a country or state is
 * instant. The browser's HTTP cache sits below (the server sends an ETag and max-age), so a reload
 * revalidates cheaply instead of downloading again.
 */
const loaded = new WeakMap<ApiClient, Map<string, Promise<CollegeIndex>>>();

/** A list made searchable; a failed load is an empty list (spec 000, section 8) and is tried again next time. */
export function loadCollegeList(api: ApiClient, path: string): Promise<CollegeIndex> {
  let lists = loaded.get(api);
  if (!lists) loaded.set(api, (lists = new Map()));
  const cached = lists.get(path);
  if (cached) return cached;
  const pending = api.get(path, collegeListSchema).then(indexColleges, () => {
    lists.delete(path);
    return EMPTY_INDEX;
  });
  lists.set(path, pending);
  return pending;
}
