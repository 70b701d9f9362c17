import { useState } from 'react';

/** What the tree's live region says now, and how to say something new. */
export function useLiveRegion(): { announcement: string; announce: (text: string) => void } {
  const [announcement, setAnnouncement] = useState('');
  // Alternating a trailing space makes the same sentence twice still a change the live region reads.
  const announce = (text: string) => setAnnouncement((prev) => (prev.endsWith(' ') ? text : `${text} `));
  return { announcement, announce };
}
