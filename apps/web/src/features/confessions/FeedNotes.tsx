/*
 * The feed's status lines that are not errors: offline, and a linked confession that is gone.
 */

/**
 * Offline: the cached cards (the first page failed) or the pages loaded so far (a later one failed).
 * Loading resumes by itself when the browser is back online; Retry is for when it does not notice.
 */
export function OfflineNote({ fromCache, onRetry }: { fromCache: boolean; onRetry(): void }) {
  return (
    <div className="cf-note cf-offline" role="status">
      <p>
        {fromCache
          ? 'You are offline: showing saved confessions.'
          : 'You are offline. More confessions will load when you are back online.'}
      </p>
      <button type="button" className="button button--secondary button--small" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

export function MissingNote() {
  return (
    <p className="cf-note" role="status">
      That confession is no longer available.
    </p>
  );
}
