import { escapeHtml } from '../../../shared/html.ts';

/** The public site's stylesheets, named by the server in the admin document (see admin-page.routes.ts). */
export function publicStyles(): string[] {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="signpost-public-styles"]');
  return (meta?.content ?? '').split(' ').filter(Boolean);
}

/** A document for a preview frame: the public stylesheets, then the given body. */
export function previewDocument(lang: string, body: string): string {
  const links = publicStyles()
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(new URL(href, window.location.origin).href)}">`)
    .join('');
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><base target="_blank">${links}</head><body>${body}</body></html>`;
}
