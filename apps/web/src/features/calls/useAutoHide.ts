import { useCallback, useEffect, useState } from 'react';

/**
 * Controls that hide after `delayMs` without pointer or keyboard activity, and come back on the next one
 * (spec 000: call controls auto-hide after 3 s). `show` is for the container's own events.
 */
export function useAutoHide(delayMs: number) {
  const [visible, setVisible] = useState(true);
  const [activity, setActivity] = useState(0);
  const show = useCallback(() => {
    setVisible(true);
    setActivity((n) => n + 1);
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), delayMs);
    return () => clearTimeout(timer);
  }, [activity, delayMs]);
  useEffect(() => {
    document.addEventListener('keydown', show);
    return () => document.removeEventListener('keydown', show);
  }, [show]);
  return { visible, show };
}
