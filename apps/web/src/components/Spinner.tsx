/** A quiet progress ring; the text next to it says what is happening. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
