import { useEffect } from 'react';

/** 'Talk · Campus Talk': each screen names the browser tab and the window. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Campus Talk` : 'Campus Talk';
  }, [title]);
}
