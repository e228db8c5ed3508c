import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../../lib/ApiContext';
import { fetchReports } from './reports-api';

/**
 * The documents page's way to the reports queue, with how many wait ('Reports (3 open)'). The count comes
 * with the first page of open reports; without it (offline, an error) the link still shows.
 */
export function ReportsLink() {
  const api = useApi();
  const [open, setOpen] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchReports(api, 'open', null, controller.signal).then(
      (page) => setOpen(page.counts.open),
      () => undefined,
    );
    return () => controller.abort();
  }, [api]);

  return (
    <p className="admin-nav">
      <Link to="/admin/reports" className="link-button">
        Reports{open === null ? '' : ` (${open} open)`}
      </Link>
    </p>
  );
}
