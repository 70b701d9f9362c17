import { useEffect, useRef, useState } from 'react';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Selection } from '@tiptap/pm/state';
import { TableKit } from '@tiptap/extension-table';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { PromptDialog } from '../../components/prompt-dialog.tsx';
import { Toolbar } from '../../components/toolbar.tsx';
import { messageOf } from '../../lib/errors.ts';
import { Callout, CALLOUT_VARIANTS, type CalloutVariant } from './callout.ts';
import { lostTags } from './html-source.ts';

const isImage = (file: File) => file.type.startsWith('image/');
const altFrom = (name: string) => name.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ');

type TextStyle = 'paragraph' | '2' | '3' | '4';

function textStyleOf(editor: Editor): TextStyle | '' {
  for (const level of [2, 3, 4] as const)
    if (editor.isActive('heading', { level })) return String(level) as TextStyle;
  return editor.isActive('paragraph') ? 'paragraph' : '';
}

function ToolButton({
  label,
  pressed,
  onClick,
  disabled,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className="tool"
      aria-pressed={pressed}
      disabled={disabled}
      // Keep the editor's selection: the toolbar acts on it.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

/**
 * TipTap with the blocks a help article needs. The HTML string is the value: the editor reports what it writes
 * and takes new values from outside (a restored revision, the source view, a local draft) without echoing them.
 */
export function RichTextEditor({
  value,
  onChange,
  onUpload,
  onLostTags,
  labelledBy,
  hidden,
  compact = false,
}: {
  value: string;
  onChange: (html: string) => void;
  onUpload: (files: File[]) => Promise<AdminFile[]>;
  onLostTags: (tags: string[]) => void;
  labelledBy: string;
  hidden: boolean;
  /** A message rather than an article (a reply to a customer): text, emphasis, links, lists, quotes and code only. */
  compact?: boolean;
}) {
  const lastValue = useRef(value);
  const callbacks = useRef({ onChange, onUpload, onLostTags });
  callbacks.current = { onChange, onUpload, onLostTags };
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<'link' | 'alt' | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const insertImagesRef = useRef<(files: File[], at?: number) => void>(() => undefined);

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          HTMLAttributes: { target: null, rel: null },
        },
      }),
      Image.configure({ inline: false, allowBase64: false }),
      TableKit.configure({ table: { resizable: false } }),
      Callout,
    ],
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: true,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        class: 'rich-text editor-surface',
      },
      handlePaste: (_view, event) => {
        const files = [...(event.clipboardData?.files ?? [])].filter(isImage);
        if (files.length === 0) return false;
        event.preventDefault();
        // A message takes no images in its text (files go with it as attachments).
        if (!compact) insertImagesRef.current(files);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        if (moved) return false;
        const files = [...(event.dataTransfer?.files ?? [])].filter(isImage);
        if (files.length === 0) return false;
        event.preventDefault();
        if (!compact)
          insertImagesRef.current(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
    },
    onCreate: ({ editor: created }) => callbacks.current.onLostTags(lostTags(value, created.getHTML())),
    onUpdate: ({ editor: updated }) => {
      const html = updated.getHTML();
      lastValue.current = html;
      callbacks.current.onChange(html);
    },
  });

  // A value from outside replaces the document; the selection stays where it can.
  useEffect(() => {
    if (!editor || value === lastValue.current) return;
    lastValue.current = value;
    const { from } = editor.state.selection;
    editor.commands.setContent(value, { emitUpdate: false });
    editor.commands.command(({ tr }) => {
      // The nearest place text can go, at or before where the cursor was.
      tr.setSelection(Selection.near(tr.doc.resolve(Math.min(from, tr.doc.content.size)), -1));
      return true;
    });
    callbacks.current.onLostTags(lostTags(value, editor.getHTML()));
  }, [editor, value]);

  insertImagesRef.current = (files: File[], at?: number) => {
    if (!editor || files.length === 0) return;
    setUploading(true);
    setUploadError(null);
    callbacks.current
      .onUpload(files)
      .then((stored) => {
        let chain = editor.chain().focus();
        if (at !== undefined) chain = chain.setTextSelection(at);
        for (const file of stored) chain = chain.setImage({ src: file.url, alt: altFrom(file.name) });
        // The new image would stay selected, and the next key typed would replace it: write on after it.
        chain.createParagraphNear().run();
      })
      .catch((error: unknown) => setUploadError(`The image could not be uploaded: ${messageOf(error)}`))
      .finally(() => setUploading(false));
  };

  if (!editor) return null;
  const chain = () => editor.chain().focus();
  // Back to the text however the dialog closed (Apply, Enter, Cancel, Escape), even when it was opened from the
  // toolbar by the keyboard: the browser would give focus back to the toolbar's button.
  const closePrompt = () => {
    setPrompt(null);
    editor.commands.focus();
  };
  const inTable = editor.isActive('table');
  const callout = CALLOUT_VARIANTS.find((variant) => editor.isActive('callout', { variant }));

  return (
    <div className="rich-editor" hidden={hidden}>
      <Toolbar label="Formatting" className="editor-toolbar">
        {!compact && (
          <>
            <select
              aria-label="Text style"
              className="tool-select"
              value={textStyleOf(editor)}
              onChange={(event) => {
                const style = event.target.value as TextStyle;
                if (style === 'paragraph') chain().setParagraph().run();
                else
                  chain()
                    .setHeading({ level: Number(style) as 2 | 3 | 4 })
                    .run();
              }}
            >
              <option value="" disabled>
                Mixed
              </option>
              <option value="paragraph">Paragraph</option>
              <option value="2">Heading 2</option>
              <option value="3">Heading 3</option>
              <option value="4">Heading 4</option>
            </select>
            <span className="tool-separator" aria-hidden="true" />
          </>
        )}
        <ToolButton
          label="Bold"
          pressed={editor.isActive('bold')}
          onClick={() => chain().toggleBold().run()}
        />
        <ToolButton
          label="Italic"
          pressed={editor.isActive('italic')}
          onClick={() => chain().toggleItalic().run()}
        />
        <ToolButton
          label="Code"
          pressed={editor.isActive('code')}
          onClick={() => chain().toggleCode().run()}
        />
        <ToolButton label="Link" pressed={editor.isActive('link')} onClick={() => setPrompt('link')} />
        <span className="tool-separator" aria-hidden="true" />
        <ToolButton
          label="Bulleted list"
          pressed={editor.isActive('bulletList')}
          onClick={() => chain().toggleBulletList().run()}
        />
        <ToolButton
          label="Numbered list"
          pressed={editor.isActive('orderedList')}
          onClick={() => chain().toggleOrderedList().run()}
        />
        <ToolButton
          label="Quote"
          pressed={editor.isActive('blockquote')}
          onClick={() => chain().toggleBlockquote().run()}
        />
        <ToolButton
          label="Code block"
          pressed={editor.isActive('codeBlock')}
          onClick={() => chain().toggleCodeBlock().run()}
        />
        {!compact && (
          <>
            <span className="tool-separator" aria-hidden="true" />
            {CALLOUT_VARIANTS.map((variant: CalloutVariant) => (
              <ToolButton
                key={variant}
                label={`${variant[0]?.toUpperCase()}${variant.slice(1)} callout`}
                pressed={callout === variant}
                onClick={() =>
                  callout === variant ? chain().unsetCallout().run() : chain().setCallout(variant).run()
                }
              />
            ))}
            <span className="tool-separator" aria-hidden="true" />
            <ToolButton
              label="Insert table"
              disabled={inTable}
              onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
            />
            {inTable && (
              <>
                <ToolButton label="Add row" onClick={() => chain().addRowAfter().run()} />
                <ToolButton label="Add column" onClick={() => chain().addColumnAfter().run()} />
                <ToolButton label="Delete row" onClick={() => chain().deleteRow().run()} />
                <ToolButton label="Delete column" onClick={() => chain().deleteColumn().run()} />
                <ToolButton label="Delete table" onClick={() => chain().deleteTable().run()} />
              </>
            )}
            <span className="tool-separator" aria-hidden="true" />
            <ToolButton label="Image" disabled={uploading} onClick={() => imageInput.current?.click()} />
            {editor.isActive('image') && (
              <ToolButton label="Image description" onClick={() => setPrompt('alt')} />
            )}
          </>
        )}
        <span className="tool-separator" aria-hidden="true" />
        <ToolButton label="Undo" disabled={!editor.can().undo()} onClick={() => chain().undo().run()} />
        <ToolButton label="Redo" disabled={!editor.can().redo()} onClick={() => chain().redo().run()} />
      </Toolbar>
      <input
        ref={imageInput}
        type="file"
        accept="image/*"
        multiple
        hidden
        onChange={(event) => {
          insertImagesRef.current([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <p className="upload-status" role="status">
        {uploading ? 'Uploading the image…' : ''}
      </p>
      {uploadError && (
        <p className="form-error" role="alert">
          {uploadError}
        </p>
      )}
      <EditorContent editor={editor} className="editor-frame" />
      {prompt === 'link' && (
        <PromptDialog
          title="Link"
          label="Address"
          type="url"
          hint="Leave empty to remove the link."
          initial={(editor.getAttributes('link').href as string | undefined) ?? ''}
          onClose={closePrompt}
          onSubmit={(href) => {
            if (href && editor.state.selection.empty && !editor.isActive('link')) {
              // Nothing selected: the address itself becomes the link's text.
              chain()
                .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
                .run();
              return;
            }
            const range = chain().extendMarkRange('link');
            if (href) range.setLink({ href }).run();
            else range.unsetLink().run();
          }}
        />
      )}
      {prompt === 'alt' && (
        <PromptDialog
          title="Image description"
          label="Describe the image for people who cannot see it"
          initial={(editor.getAttributes('image').alt as string | undefined) ?? ''}
          onClose={closePrompt}
          onSubmit={(alt) => chain().updateAttributes('image', { alt }).run()}
        />
      )}
    </div>
  );
}
