import { snippetParts } from './search-results.ts';

/** The text around a result's match, its matched words highlighted; rendered as text, never as HTML. */
export function ResultSnippet({ snippet }: { snippet: string }) {
  const parts = snippetParts(snippet);
  if (parts.length === 0) return null;
  return (
    <p className="snippet">
      {parts.map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : part.text))}
    </p>
  );
}
