import { useEffect } from 'react';

/**
 * The class every icon-font glyph carries: the server links Font Awesome's stylesheet into a page whose HTML has it
 * (render-page.ts), so pages without one never load it (docs/decisions.md).
 */
export const FONT_ICON_MARKER = 'font-icon';

/** Vite turns this into a `<link rel="stylesheet">` added once; a page rendered with the link already has it. */
const loadFontIcons = () => import('../styles/font-icons.css').catch(() => undefined);

/** A Font Awesome glyph by its classes (`fa fa-credit-card`, `fa-solid fa-wifi`), already checked by the server. */
export function FontIcon({ classes, className }: { classes: string; className?: string }) {
  useEffect(() => {
    void loadFontIcons();
  }, []);
  return (
    <span className={[FONT_ICON_MARKER, className, classes].filter(Boolean).join(' ')} aria-hidden="true" />
  );
}
