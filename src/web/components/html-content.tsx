/** HTML the server sanitised when it was stored (article bodies, category descriptions). */
export function HtmlContent({ html, className }: { html: string; className?: string }) {
  return <div className={className ?? 'rich-text'} dangerouslySetInnerHTML={{ __html: html }} />;
}
