import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePlatform } from '../platform';

/** Routes asked for from outside the page (notification clicks, deep links, the service worker). */
export function PlatformNavigation() {
  const platform = usePlatform();
  const navigate = useNavigate();
  useEffect(() => platform.onNavigate((route) => navigate(route)), [platform, navigate]);
  return null;
}
