import type { FileRef } from '../../../shared/api/knowledge.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { sizeInKb } from '../../lib/format.ts';
import { fileKind } from './file-kind.ts';

/** The article's files: each with its type, its size in KB (the spec's bytes / 1024, rounded) and a download button. */
export function FileList({ files }: { files: FileRef[] }) {
  const { t } = useI18n();
  if (files.length === 0) return null;
  return (
    <section className="files" aria-labelledby="files-heading">
      <h2 id="files-heading">{t('files')}</h2>
      <ul className="file-list">
        {files.map((file) => {
          const size = sizeInKb(file.file_size);
          const { kind, label } = fileKind(file.original_name);
          return (
            <li key={file.id} className="file-item">
              <span className={`file-type file-type-${kind}`} aria-hidden="true">
                {label}
              </span>
              <span className="file-text">
                <a
                  className="file-name"
                  href={file.link}
                  target="_blank"
                  rel="noopener"
                  aria-label={t('openFile', { name: file.original_name, size })}
                >
                  {file.original_name}
                </a>
                <span className="file-size">{t('fileSize', { size })}</span>
              </span>
              {/* Signed links of restricted articles keep their query: the whole link is the download's address. */}
              <a
                className="button button-secondary file-download"
                href={file.link}
                download={file.original_name}
                aria-label={t('downloadFile', { name: file.original_name, size })}
              >
                <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
                  <path
                    d="M12 4v11m-4.5-4.5L12 15l4.5-4.5M5 19h14"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </svg>
                <span className="file-download-text">{t('download')}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
