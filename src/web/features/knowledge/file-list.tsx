import type { FileRef } from '../../../shared/api/knowledge.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { sizeInKb } from '../../lib/format.ts';

export function FileList({ files }: { files: FileRef[] }) {
  const { t } = useI18n();
  if (files.length === 0) return null;
  return (
    <section className="files" aria-labelledby="files-heading">
      <h2 id="files-heading">{t('files')}</h2>
      <ul>
        {files.map((file) => {
          const size = sizeInKb(file.file_size);
          return (
            <li key={file.id}>
              <a
                href={file.link}
                target="_blank"
                rel="noopener"
                aria-label={t('downloadFile', { name: file.original_name, size })}
              >
                <span className="file-name">{file.original_name}</span>
              </a>{' '}
              <span className="file-size">{t('fileSize', { size })}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
