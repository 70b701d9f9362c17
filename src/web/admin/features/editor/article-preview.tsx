import { useEffect, useRef, useState } from 'react';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { escapeHtml } from '../../../../shared/html.ts';
import { previewDocument } from '../../lib/public-styles.ts';

const sizeInKb = (bytes: number) => Math.round(bytes / 1024);

/** Typing pauses this long before the article is sent to be drawn for the preview. */
const DRAW_DELAY_MS = 300;

/** The widths the page is drawn at: a laptop's, scaled down to fit the editor's column, and a phone's. */
const WIDTHS = {
  desktop: { label: 'Desktop', width: 1280, height: 800 },
  phone: { label: 'Phone', width: 375, height: 720 },
} as const;
type Device = keyof typeof WIDTHS;

/** The scale that fits `width` into the element's own width (never enlarged). */
function useFitScale(width: number) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const fit = () => setScale(Math.min(1, element.clientWidth / width));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => observer.disconnect();
  }, [width]);
  return { box, scale };
}

/** What the preview draws: the article with its place, as the editor holds it now. */
export interface PreviewedArticle {
  id: number | null;
  sectionId: number;
  categoryId: number | null;
  title: string;
  html: string;
  canCreateIssue: boolean;
  files: AdminFile[];
}

/** The server's drawing of the page, or null when it could not draw it (too large, offline, help centre off). */
type Drawn = { document: string | null };

/**
 * The article's public page as the server draws it (POST /api/admin/preview/article): the public site's own
 * routes and components, the body cleaned as a save would clean it. Until the first answer the preview is empty;
 * while the admin types it shows the last one.
 */
function useDrawnPage(article: PreviewedArticle): Drawn | null {
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const { id, sectionId, categoryId, title, html, canCreateIssue, files } = article;
  const fileIds = files.map((file) => file.id).join(',');
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      adminCall('previewArticle', {
        body: {
          article_id: id,
          section_id: sectionId,
          category_id: categoryId,
          title,
          body_html: html,
          can_create_issue: canCreateIssue,
          file_ids: fileIds ? fileIds.split(',').map(Number) : [],
        },
      }).then(
        (answer) => current && setDrawn({ document: answer.document }),
        () => current && setDrawn({ document: null }),
      );
    }, DRAW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id, sectionId, categoryId, title, html, canCreateIssue, fileIds]);
  return drawn;
}

/**
 * The article as its public page will show it once published (/knowledge/instruction/:id: header, trail, body,
 * files, request button, the section's other articles), in a sandboxed frame without scripts: nothing in the body
 * can run next to the admin's token. Unsaved changes are drawn as a save will store them. When the server cannot
 * draw the page, the article column is drawn from the editor's HTML as written, with the public stylesheet.
 */
export function ArticlePreview({
  article,
  lang,
  unsaved,
}: {
  article: PreviewedArticle;
  lang: string;
  unsaved: boolean;
}) {
  const drawn = useDrawnPage(article);
  const [device, setDevice] = useState<Device>('desktop');
  const size = WIDTHS[device];
  const { box, scale } = useFitScale(size.width);
  const { title, html, files } = article;
  const asWritten = drawn !== null && drawn.document === null;
  const fileList = files.length
    ? `<section class="files"><h2>Files</h2><ul>${files
        .map(
          (file) =>
            `<li><a href="${escapeHtml(file.url)}"><span class="file-name">${escapeHtml(file.name)}</span></a> <span class="file-size">${sizeInKb(file.size)} KB</span></li>`,
        )
        .join('')}</ul></section>`
    : '';
  const column = `<main class="page"><div class="instruction-layout"><article class="instruction"><h1>${escapeHtml(
    title || 'Untitled article',
  )}</h1><div class="rich-text">${html}</div>${fileList}</article></div></main>`;
  return (
    <>
      <p className="field-hint preview-note" role="status">
        {drawn === null
          ? 'Preparing the preview…'
          : asWritten
            ? 'The preview shows the article as written: the server could not draw its page now. Saving removes markup that help articles cannot contain.'
            : unsaved
              ? 'The preview shows unsaved changes as they will be saved, on the page visitors will see once it is published.'
              : 'The preview shows the page visitors will see once it is published.'}
      </p>
      <div className="segmented preview-devices" role="group" aria-label="Preview width">
        {(Object.keys(WIDTHS) as Device[]).map((each) => (
          <button
            key={each}
            type="button"
            className="tool"
            aria-pressed={device === each}
            onClick={() => setDevice(each)}
          >
            {WIDTHS[each].label}
          </button>
        ))}
      </div>
      <div className="preview-stage" ref={box} style={{ height: size.height * scale }}>
        {drawn !== null && (
          <iframe
            className="preview-frame"
            title={`Preview of “${title || 'Untitled article'}” as visitors will see it`}
            // Same origin so the images of drafts load with the admin's files cookie; no scripts run in it.
            sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
            srcDoc={drawn.document ?? previewDocument(lang, column)}
            // Drawn at the device's width, so the page lays itself out as it would there, then scaled to fit.
            style={{ width: size.width, height: size.height, transform: `scale(${scale})` }}
          />
        )}
      </div>
    </>
  );
}
