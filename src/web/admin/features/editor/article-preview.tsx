import type { AdminFile } from '../../../../shared/api/admin.ts';
import { escapeHtml, previewDocument } from '../../lib/public-styles.ts';

const sizeInKb = (bytes: number) => Math.round(bytes / 1024);

/**
 * The article as the public page lays it out (the article column of /knowledge/instruction/:id), drawn with the
 * public stylesheet in a sandboxed frame without scripts: nothing in the body can run next to the admin's token.
 * It draws the editor's HTML as it is; only a save runs the server's sanitiser, and the editor then takes the
 * stored HTML back, so a saved article previews exactly as visitors see it.
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
  )}</h1><div class="rich-text">${html}</div>${fileList}</article></div></main>`;
  return (
    <>
      {unsaved && (
        <p className="field-hint preview-note">
          The preview shows unsaved changes as written. Saving removes markup that help articles cannot
          contain, so the public page can differ until the article is saved.
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
