import { useEffect, useState } from 'react';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { adminApi } from '../../api/admin-api.ts';
import { escapeHtml, previewDocument } from '../../lib/public-styles.ts';

const sizeInKb = (bytes: number) => Math.round(bytes / 1024);

/** Typing pauses this long before unsaved HTML is sent to be cleaned for the preview. */
const CLEAN_DELAY_MS = 300;

type Cleaned = { source: string; html: string | null };

/**
 * Unsaved HTML as a save would store it: the server cleans it by the same rules (POST /api/admin/preview). Until
 * the first answer the preview is empty; while the admin types it shows the last one. `html` is null when the
 * server could not clean it (too large, offline): the preview then draws it as written.
 */
function useCleanedHtml(html: string, unsaved: boolean): Cleaned | null {
  const [cleaned, setCleaned] = useState<Cleaned | null>(null);
  useEffect(() => {
    if (!unsaved) return;
    let current = true;
    const timer = setTimeout(() => {
      adminApi.previewHtml(html).then(
        (answer) => current && setCleaned({ source: html, html: answer.html }),
        () => current && setCleaned({ source: html, html: null }),
      );
    }, CLEAN_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [html, unsaved]);
  return unsaved ? cleaned : { source: html, html };
}

/**
 * The article as the public page lays it out (the article column of /knowledge/instruction/:id), drawn with the
 * public stylesheet in a sandboxed frame without scripts: nothing in the body can run next to the admin's token.
 * A saved article is drawn as stored; unsaved changes as the server will clean them when they are saved.
 */
export function ArticlePreview({
  title,
  html,
  files,
  lang,
  unsaved,
}: {
  title: string;
  html: string;
  files: AdminFile[];
  lang: string;
  unsaved: boolean;
}) {
  const cleaned = useCleanedHtml(html, unsaved);
  const asWritten = cleaned !== null && cleaned.html === null;
  const shown = cleaned === null ? '' : (cleaned.html ?? cleaned.source);
  const fileList = files.length
    ? `<section class="files"><h2>Files</h2><ul>${files
        .map(
          (file) =>
            `<li><a href="${escapeHtml(file.url)}"><span class="file-name">${escapeHtml(file.name)}</span></a> <span class="file-size">${sizeInKb(file.size)} KB</span></li>`,
        )
        .join('')}</ul></section>`
    : '';
  const body = `<main class="page"><div class="instruction-layout"><article class="instruction"><h1>${escapeHtml(
    title || 'Untitled article',
  )}</h1><div class="rich-text">${shown}</div>${fileList}</article></div></main>`;
  return (
    <>
      {unsaved && (
        <p className="field-hint preview-note" role="status">
          {asWritten
            ? 'The preview shows unsaved changes as written: the server could not clean them now. Saving removes markup that help articles cannot contain.'
            : cleaned === null
              ? 'Preparing the preview…'
              : 'The preview shows unsaved changes as they will be saved.'}
        </p>
      )}
      <iframe
        className="preview-frame"
        title={`Preview of “${title || 'Untitled article'}” as visitors will see it`}
        // Same origin so the images of drafts load with the admin's files cookie; no scripts run in it.
        sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
        srcDoc={previewDocument(lang, body)}
      />
    </>
  );
}
