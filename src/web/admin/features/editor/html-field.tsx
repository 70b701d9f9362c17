import { useId, useRef, useState } from 'react';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { formatHtml } from './html-source.ts';
import { RichTextEditor } from './rich-text-editor.tsx';

/**
 * Stored HTML edited in the rich view or as source: an article's body, a category's description. When the rich
 * view cannot hold some of the markup it opens in the source view, so an untouched field keeps that markup.
 */
export function HtmlField({
  label,
  value,
  onChange,
  onUpload,
  error,
}: {
  label: string;
  value: string;
  onChange: (html: string) => void;
  onUpload: (files: File[]) => Promise<AdminFile[]>;
  error?: string | undefined;
}) {
  const ids = useId();
  const labelId = `${ids}-label`;
  const [mode, setMode] = useState<'rich' | 'source'>('rich');
  const [sourceText, setSourceText] = useState('');
  // The value the source text was made from: a value from outside (a restored draft or revision, a discard)
  // replaces the text on screen.
  const [sourceOf, setSourceOf] = useState(value);
  const [lost, setLost] = useState<string[]>([]);
  const lostChecked = useRef(false);

  const showSource = () => {
    setSourceText(formatHtml(value));
    setSourceOf(value);
    setMode('source');
  };
  if (mode === 'source' && value !== sourceOf) {
    setSourceText(formatHtml(value));
    setSourceOf(value);
  }

  return (
    <div className="field">
      <div className="body-head">
        <span id={labelId} className="field-label">
          {label}
        </span>
        <div className="segmented" role="group" aria-label={`${label} view`}>
          <button
            type="button"
            className="tool"
            aria-pressed={mode === 'rich'}
            onClick={() => setMode('rich')}
          >
            Rich text
          </button>
          <button type="button" className="tool" aria-pressed={mode === 'source'} onClick={showSource}>
            HTML source
          </button>
        </div>
      </div>
      {lost.length > 0 && (
        <p className="banner banner-warning">
          The rich view cannot keep some of this markup ({lost.map((tag) => `<${tag}>`).join(', ')}). Edit it
          in the HTML source view: a change in the rich view would remove that markup.
        </p>
      )}
      <RichTextEditor
        value={value}
        onChange={onChange}
        onUpload={onUpload}
        onLostTags={(tags) => {
          setLost(tags);
          if (!lostChecked.current && tags.length > 0) showSource();
          lostChecked.current = true;
        }}
        labelledBy={labelId}
        hidden={mode !== 'rich'}
      />
      {mode === 'source' && (
        <>
          <textarea
            className="source-editor"
            aria-labelledby={labelId}
            aria-describedby={`${ids}-source-hint`}
            spellCheck={false}
            value={sourceText}
            onChange={(e) => {
              setSourceText(e.target.value);
              setSourceOf(e.target.value);
              onChange(e.target.value);
            }}
          />
          <p className="field-hint" id={`${ids}-source-hint`}>
            HTML as stored. The server keeps only what help articles need (headings, lists, tables, images,
            links, code, callouts) and removes the rest when saving.
          </p>
        </>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
