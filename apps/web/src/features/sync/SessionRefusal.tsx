import { useEffect, useSyncExternalStore } from 'react';
import { CLOSE_CODES, REALTIME_ERRORS } from '@campus/protocol';
import type { SyncClient } from '@campus/sync';
import { useSession } from '../session/session-context';
import './session-refusal.css';

/**
 * The server refused the realtime session for good, and the client stopped retrying: a refused token ends
 * the session as an expired one (as a 401 from the API does); an outdated app asks for a reload.
 */
export function SessionRefusal({ client, reload }: { client: SyncClient; reload?: () => void }) {
  const { refusedCode } = useSyncExternalStore(client.subscribe, client.getState);
  const { expire } = useSession();

  useEffect(() => {
    if (refusedCode === CLOSE_CODES.unauthorized) void expire();
  }, [refusedCode, expire]);

  if (refusedCode !== CLOSE_CODES.protocolVersion) return null;
  return (
    <div className="session-refusal" role="alert">
      <p className="session-refusal__text">{REALTIME_ERRORS.protocolVersion}</p>
      <button
        type="button"
        className="button button--primary button--small"
        onClick={() => (reload ? reload() : window.location.reload())}
      >
        Reload
      </button>
    </div>
  );
}
