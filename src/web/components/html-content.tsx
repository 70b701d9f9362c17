import { boxTables } from '../lib/box-tables.ts';

/** HTML the server sanitised when it was stored (article bodies, category descriptions); tables scroll in a box. */
export function HtmlContent({ html, className, lang }: { html: string; className?: string; lang?: string }) {
  return (
    <div
      className={className ?? 'rich-text'}
      lang={lang}
      dangerouslySetInnerHTML={{ __html: boxTables(html) }}
    />
  );
}
