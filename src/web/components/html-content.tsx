import { boxTables } from '../features/knowledge/article-outline.ts';
import { useI18n } from '../i18n/i18n.tsx';

/** HTML the server sanitised when it was stored (article bodies, category descriptions); tables scroll in a box. */
export function HtmlContent({ html, className }: { html: string; className?: string }) {
  const { t } = useI18n();
  return (
    <div
      className={className ?? 'rich-text'}
      dangerouslySetInnerHTML={{ __html: boxTables(html, t('tableRegion')) }}
    />
  );
}
