import { PlaceholderPage } from '../pages/PlaceholderPage';

/** Admins review submitted student IDs here; the route is already admin-only. */
export function AdminDocumentsPage() {
  return (
    <PlaceholderPage
      title="Document review"
      icon="shield"
      purpose="Review submitted student IDs and verify or reject them."
    />
  );
}
