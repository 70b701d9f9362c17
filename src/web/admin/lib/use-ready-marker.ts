import { useEffect } from 'react';

/** Marks the document once React has taken over, as the public site does (tests wait for it). */
export function useReadyMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}
