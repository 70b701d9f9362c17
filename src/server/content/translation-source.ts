import { articleText, categoryText, sectionText, snapshot } from './translation-sources.ts';

/**
 * The snapshot a translation keeps of its source's text (`source_text`), as the admin app writes it on save
 * (translation-sources.ts), for the content folder's import: a translation imported with its source is not outdated.
 */
export const sectionSourceText = (source: { name: string }) => snapshot(sectionText(source));

export const categorySourceText = (source: { name: string; description: string }) =>
  snapshot(categoryText(source));

export const articleSourceText = (source: { title: string; body_html: string }) => snapshot(articleText(source));
