import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

interface PlaceholderPageProps {
  title: string;
  /** What the screen is for, in one short line. */
  purpose: string;
  icon?: IconName;
  children?: ReactNode;
}

/** A screen whose feature lands in a later update: it says so plainly and pretends nothing. */
export function PlaceholderPage({ title, purpose, icon = 'sparkles', children }: PlaceholderPageProps) {
  useDocumentTitle(title);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          {title}
        </h1>
      </header>
      <div className="empty-state">
        <span className="empty-state__icon">
          <Icon name={icon} size={28} />
        </span>
        <p className="empty-state__title">{purpose}</p>
        <p className="empty-state__text">Arrives in a coming update.</p>
        {children}
      </div>
    </section>
  );
}
