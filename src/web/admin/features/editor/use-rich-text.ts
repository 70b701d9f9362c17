import { useEffect, useRef, useState } from 'react';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Selection } from '@tiptap/pm/state';
import { TableKit } from '@tiptap/extension-table';
import type { Slice } from '@tiptap/pm/model';
import type { EditorView } from '@tiptap/pm/view';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { messageOf } from '../../lib/errors.ts';
import { Callout } from './callout.ts';
import { lostTags } from './html-source.ts';

const isImage = (file: File) => file.type.startsWith('image/');
const altFrom = (name: string) => name.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ');

/** The blocks a help article needs; made for each editor, as TipTap configures its extensions per editor. */
const extensions = () => [
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
];

export interface RichTextOptions {
  value: string;
  onChange: (html: string) => void;
  onUpload: (files: File[]) => Promise<AdminFile[]>;
  onLostTags: (tags: string[]) => void;
  labelledBy: string;
  compact: boolean;
}

type InsertImages = (files: File[], at?: number) => void;

/** Pasted or dropped images are uploaded and inserted; a message (compact) takes none in its text. */
function imageHandlers(compact: boolean, insertImages: { current: InsertImages }) {
  return {
    handlePaste: (_view: EditorView, event: ClipboardEvent) => {
      const files = [...(event.clipboardData?.files ?? [])].filter(isImage);
      if (files.length === 0) return false;
      event.preventDefault();
      // A message takes no images in its text (files go with it as attachments).
      if (!compact) insertImages.current(files);
      return true;
    },
    handleDrop: (view: EditorView, event: DragEvent, _slice: Slice, moved: boolean) => {
      if (moved) return false;
      const files = [...(event.dataTransfer?.files ?? [])].filter(isImage);
      if (files.length === 0) return false;
      event.preventDefault();
      if (!compact)
        insertImages.current(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
      return true;
    },
  };
}

/**
 * The TipTap editor behind RichTextEditor, with the HTML string as its value: it reports what it writes, takes new
 * values from outside without echoing them, and uploads the images put into it.
 */
export function useRichText({ value, onChange, onUpload, onLostTags, labelledBy, compact }: RichTextOptions) {
  const lastValue = useRef(value);
  const callbacks = useRef({ onChange, onUpload, onLostTags });
  callbacks.current = { onChange, onUpload, onLostTags };
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const insertImagesRef = useRef<InsertImages>(() => undefined);

  const editor = useEditor({
    extensions: extensions(),
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
      ...imageHandlers(compact, insertImagesRef),
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

  return { editor, uploading, uploadError, insertImages: (files: File[]) => insertImagesRef.current(files) };
}
