import { useCallback, useEffect, useRef, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { CallLayer } from '../calls/CallLayer';
import { OfflineBanner } from '../offline/OfflineBanner';
import { SyncProvider } from '../sync/SyncProvider';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import './shell.css';

const SIDEBAR_ID = 'app-sidebar';
/** Matches the CSS breakpoint below which the sidebar becomes a slide-in panel. */
const WIDE_QUERY = '(min-width: 900px)';

export function AppShell() {
  const [menuOpen, setMenuOpen] = useState(false);
  const shellRef = useRef<HTMLDivElement>(null);

  const closeMenu = useCallback((restoreFocus = false) => {
    setMenuOpen(false);
    if (restoreFocus) shellRef.current?.querySelector<HTMLElement>('.topbar__menu')?.focus();
  }, []);

  // While open on a phone: Escape closes it, focus moves into it, and growing the window to desktop closes it.
  useEffect(() => {
    if (!menuOpen) return;
    shellRef.current?.querySelector<HTMLElement>(`#${SIDEBAR_ID} .sidebar__link`)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMenu(true);
    };
    document.addEventListener('keydown', onKey);
    const wide = typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_QUERY) : null;
    const onWide = () => {
      if (wide?.matches) closeMenu();
    };
    wide?.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', onKey);
      wide?.removeEventListener('change', onWide);
    };
  }, [menuOpen, closeMenu]);

  return (
    <SyncProvider>
      <CallLayer>
        <div className="shell" ref={shellRef} data-menu-open={menuOpen}>
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={() => closeMenu()} />
          {menuOpen ? (
            <div className="shell__backdrop" aria-hidden="true" onClick={() => closeMenu(true)} />
          ) : null}
          <div className="shell__body" inert={menuOpen}>
            <TopBar
              sidebarId={SIDEBAR_ID}
              menuOpen={menuOpen}
              onToggleMenu={() => setMenuOpen((open) => !open)}
            />
            <OfflineBanner />
            <main id="main" className="shell__main" tabIndex={-1}>
              <Outlet />
            </main>
          </div>
        </div>
      </CallLayer>
    </SyncProvider>
  );
}
