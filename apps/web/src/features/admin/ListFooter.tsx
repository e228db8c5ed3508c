/** What a paged admin list (documents, manual colleges, reports) shows below its items. */
export interface PagedListState {
  error: string | null;
  next: string | null;
  loadingMore: boolean;
  hasItems: boolean;
}

/**
 * The end of a paged admin list: its error with Retry (which retries the page that failed: the next one
 * when some are shown, else the first), or Load more while there is a next page.
 */
export function ListFooter({
  state,
  reload,
  loadMore,
}: {
  state: PagedListState;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
}) {
  if (state.error)
    return (
      <div className="form-message form-message--error" role="alert">
        <span>{state.error}</span>
        <button
          type="button"
          className="button button--secondary button--small form-message__action"
          onClick={() => void (state.hasItems && state.next ? loadMore() : reload())}
        >
          Retry
        </button>
      </div>
    );
  if (!state.next) return null;
  return (
    <div className="admin-more">
      <button
        type="button"
        className="button button--secondary"
        disabled={state.loadingMore}
        onClick={() => void loadMore()}
      >
        {state.loadingMore ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
