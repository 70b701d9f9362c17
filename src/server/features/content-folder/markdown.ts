import MarkdownIt from 'markdown-it';
import { sanitizeArticleHtml } from '../../html/sanitize.ts';
import { decodeEntities } from '../../../shared/html.ts';

const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false });

/** A URL that points into the content folder rather than to another site or page. */
export function isRelativeReference(url: string): boolean {
  return !/^([a-z][a-z0-9+.-]*:|\/\/|\/|#|\?)/i.test(url.trim()) && url.trim() !== '';
}

/** Splits `path/to/file.png#frag?x` into the path part and whatever followed it. */
export function splitReference(url: string): { path: string; suffix: string } {
  const match = /^([^#?]*)(.*)$/.exec(url.trim());
  const raw = match?.[1] ?? '';
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // A stray % is part of the name, not an escape.
  }
  return { path, suffix: match?.[2] ?? '' };
}

/** Relative references a Markdown body makes: images (Markdown or raw HTML) and links. */
export function collectReferences(source: string): { images: string[]; links: string[] } {
  const images = new Set<string>();
  const links = new Set<string>();
  const visit = (tokens: ReturnType<typeof markdown.parse>) => {
    for (const token of tokens) {
      if (token.type === 'image') {
        const src = String(token.attrGet('src') ?? '');
        if (src && isRelativeReference(src)) images.add(splitReference(src).path);
      } else if (token.type === 'link_open') {
        const href = String(token.attrGet('href') ?? '');
        if (href && isRelativeReference(href)) links.add(splitReference(href).path);
      } else if (token.type === 'html_block' || token.type === 'html_inline') {
        for (const match of token.content.matchAll(/<img\b[^>]*?\ssrc\s*=\s*["']([^"']+)["']/gi)) {
          if (match[1] && isRelativeReference(match[1])) images.add(splitReference(match[1]).path);
        }
      }
      if (token.children) visit(token.children);
    }
  };
  visit(markdown.parse(source, {}));
  return { images: [...images], links: [...links] };
}

type Resolve = (path: string, kind: 'src' | 'href') => string | undefined;

const rewriteWith = (resolve: Resolve) => (url: string, attribute: 'src' | 'href') => {
  if (!isRelativeReference(url)) return url;
  const { path, suffix } = splitReference(url);
  const target = resolve(path, attribute);
  return target === undefined ? url : target + (target.includes('#') ? '' : suffix);
};

/** Markdown to the sanitised HTML the public sees; relative references go through `resolve`. */
export function renderMarkdown(source: string, resolve: Resolve) {
  return sanitizeArticleHtml(markdown.render(source), { rewriteUrl: rewriteWith(resolve) });
}

/** A body written as HTML (`format: html`, as the admin's editor makes them): only sanitised, never Markdown. */
export function renderHtml(source: string, resolve: Resolve) {
  return sanitizeArticleHtml(source, { rewriteUrl: rewriteWith(resolve) });
}

/** Relative references an HTML body makes: image sources and link targets. */
export function collectHtmlReferences(source: string): { images: string[]; links: string[] } {
  const collect = (pattern: RegExp) => {
    const found = new Set<string>();
    for (const match of source.matchAll(pattern)) {
      const url = match[1] && decodeEntities(match[1]);
      if (url && isRelativeReference(url)) found.add(splitReference(url).path);
    }
    return [...found];
  };
  return {
    images: collect(/<img\b[^>]*?\ssrc\s*=\s*["']([^"']+)["']/gi),
    links: collect(/<a\b[^>]*?\shref\s*=\s*["']([^"']+)["']/gi),
  };
}
