import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { RandomKind } from '@campus/protocol';
import { readRandomNav } from './random-nav';
import { useRandomSession } from './useRandomSession';

/**
 * A random screen's session with what the navigation brought: focused talk's filters, and a search to start
 * on arrival when chosen from an options screen (once: the history entry forgets it, so Back does not start
 * another search).
 */
export function useRandomScreen(kind: RandomKind) {
  const location = useLocation();
  const navigate = useNavigate();
  const [nav] = useState(() => readRandomNav(location.state));
  const session = useRandomSession(kind, nav.filters);
  const { controller } = session;

  useEffect(() => {
    if (!nav.start) return;
    void controller.start();
    const state = nav.filters ? { filters: nav.filters } : null;
    void navigate(location.pathname, { replace: true, state });
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [controller]);

  return session;
}
