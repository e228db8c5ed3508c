import { parseStartupQuery } from '@campus/protocol';

/**
 * The start-up query of the spec: open_confession opens Confessions at that confession; open_chat is only
 * logged. Returns the route to open instead of the current one, or null.
 */
export function startupRoute(search: string): string | null {
  const action = parseStartupQuery(search);
  if (action.kind === 'open_confession') return action.route;
  if (action.kind === 'open_chat') console.info('Start-up action open_chat for partner', action.partnerId);
  return null;
}

/** Runs before the router reads the URL, so the guards see (and remember) the final destination. */
export function applyStartupQuery(
  location: Location = window.location,
  history: History = window.history,
): void {
  const route = startupRoute(location.search);
  if (route) history.replaceState(history.state, '', route);
}
