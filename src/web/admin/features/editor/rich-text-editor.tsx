import { useRef, useState } from 'react';
import { EditorContent, type Editor } from '@tiptap/react';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { PromptDialog } from '../../components/prompt-dialog.tsx';
import { RichTextToolbar } from './rich-text-toolbar.tsx';
import { useRichText } from './use-rich-text.ts';

type Prompt = 'link' | 'alt' | null;

/** The link's address and the image's description, asked in a dialog over the text. */
function EditorPrompt({ editor, prompt, onClose }: { editor: Editor; prompt: Prompt; onClose: () => void }) {
  const chain = () => editor.chain().focus();
  return (
    <>
      {prompt === 'link' && (
        <PromptDialog
          title="Link"
          label="Address"
          type="url"
          hint="Leave empty to remove the link."
          initial={(editor.getAttributes('link').href as string | undefined) ?? ''}
          onClose={onClose}
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
          onClose={onClose}
          onSubmit={(alt) => chain().updateAttributes('image', { alt }).run()}
        />
      )}
    </>
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
  const { editor, uploading, uploadError, insertImages } = useRichText({
    value,
    onChange,
    onUpload,
    onLostTags,
    labelledBy,
    compact,
  });
  const [prompt, setPrompt] = useState<Prompt>(null);
  const imageInput = useRef<HTMLInputElement>(null);

  if (!editor) return null;
  // Back to the text however the dialog closed (Apply, Enter, Cancel, Escape), even when it was opened from the
  // toolbar by the keyboard: the browser would give focus back to the toolbar's button.
  const closePrompt = () => {
    setPrompt(null);
    editor.commands.focus();
  };

  return (
    <div className="rich-editor" hidden={hidden}>
      <RichTextToolbar
        editor={editor}
        compact={compact}
        uploading={uploading}
        onLink={() => setPrompt('link')}
        onImage={() => imageInput.current?.click()}
        onImageDescription={() => setPrompt('alt')}
      />
      <input
        ref={imageInput}
        type="file"
        accept="image/*"
        multiple
        hidden
        onChange={(event) => {
          insertImages([...(event.target.files ?? [])]);
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
      <EditorPrompt editor={editor} prompt={prompt} onClose={closePrompt} />
    </div>
  );
}
