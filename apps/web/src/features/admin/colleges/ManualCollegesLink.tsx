import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../../lib/ApiContext';
import { fetchManualColleges } from './colleges-api';

/**
 * The documents page's way to the manual colleges, with how many wait ('Manual colleges (3)'). The count
 * is the list's total from a one-college page; without it (offline, an error) the link still shows.
 */
export function ManualCollegesLink() {
  const api = useApi();
  const [total, setTotal] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchManualColleges(api, null, 1, controller.signal).then(
      (page) => setTotal(page.total),
      () => undefined,
    );
    return () => controller.abort();
  }, [api]);

  return (
    <p className="admin-nav">
      <Link to="/admin/colleges" className="link-button">
        Manual colleges{total === null ? '' : ` (${total})`}
      </Link>
    </p>
  );
}
