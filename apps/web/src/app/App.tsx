import { BrowserRouter } from 'react-router-dom';
import type { Platform } from '@campus/protocol';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './AppRoutes';
import { PlatformNavigation } from './PlatformNavigation';

export function App({ platform }: { platform: Platform }) {
  return (
    <BrowserRouter>
      <AppProviders platform={platform}>
        <PlatformNavigation />
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
