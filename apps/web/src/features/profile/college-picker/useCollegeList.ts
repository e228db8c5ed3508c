import { useEffect, useState } from 'react';
import { useApi } from '../../../lib/ApiContext';
import { EMPTY_INDEX, type CollegeIndex } from './college-index';
import { loadCollegeList } from './college-lists';

export type CollegeList = { status: 'idle' | 'loading' | 'ready'; index: CollegeIndex };

const IDLE: CollegeList = { status: 'idle', index: EMPTY_INDEX };

/** The searchable list at `path` (null: nothing to load yet, India before a state is chosen). */
export function useCollegeList(path: string | null): CollegeList {
  const api = useApi();
  const [shown, setShown] = useState<{ path: string; index: CollegeIndex } | null>(null);

  useEffect(() => {
    if (!path) return;
    let live = true;
    void loadCollegeList(api, path).then((index) => {
      if (live) setShown({ path, index });
    });
    return () => {
      live = false;
    };
  }, [api, path]);

  if (!path) return IDLE;
  // A list read for another path is never shown (no Delhi colleges for a frame after picking Goa).
  return shown?.path === path
    ? { status: 'ready', index: shown.index }
    : { status: 'loading', index: EMPTY_INDEX };
}
