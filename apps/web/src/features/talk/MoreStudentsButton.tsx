/** The directory's next page, under a search's results (New chat and Create Group). */
export function MoreStudentsButton({ loading, onClick }: { loading: boolean; onClick(): void }) {
  return (
    <button type="button" className="button button--ghost button--small" onClick={onClick} disabled={loading}>
      {loading ? 'Loading…' : 'More students'}
    </button>
  );
}
