import type { Editor } from '@tiptap/react';
import { Toolbar } from '../../components/toolbar.tsx';
import { CALLOUT_VARIANTS, type CalloutVariant } from './callout.ts';

type Chain = ReturnType<Editor['chain']>;
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

const Separator = () => <span className="tool-separator" aria-hidden="true" />;

/** A button that turns a mark or block on and off: its label, what it is in TipTap, and the command. */
interface Toggle {
  label: string;
  active: string;
  toggle: (chain: Chain) => Chain;
}

const MARKS: Toggle[] = [
  { label: 'Bold', active: 'bold', toggle: (c) => c.toggleBold() },
  { label: 'Italic', active: 'italic', toggle: (c) => c.toggleItalic() },
  { label: 'Code', active: 'code', toggle: (c) => c.toggleCode() },
];
const BLOCKS: Toggle[] = [
  { label: 'Bulleted list', active: 'bulletList', toggle: (c) => c.toggleBulletList() },
  { label: 'Numbered list', active: 'orderedList', toggle: (c) => c.toggleOrderedList() },
  { label: 'Quote', active: 'blockquote', toggle: (c) => c.toggleBlockquote() },
  { label: 'Code block', active: 'codeBlock', toggle: (c) => c.toggleCodeBlock() },
];
/** What a table's own buttons do, shown while the cursor is in one. */
const TABLE_TOOLS: { label: string; run: (chain: Chain) => Chain }[] = [
  { label: 'Add row', run: (c) => c.addRowAfter() },
  { label: 'Add column', run: (c) => c.addColumnAfter() },
  { label: 'Delete row', run: (c) => c.deleteRow() },
  { label: 'Delete column', run: (c) => c.deleteColumn() },
  { label: 'Delete table', run: (c) => c.deleteTable() },
];

const chainOf = (editor: Editor) => () => editor.chain().focus();

function Toggles({ editor, toggles }: { editor: Editor; toggles: Toggle[] }) {
  const chain = chainOf(editor);
  return toggles.map(({ label, active, toggle }) => (
    <ToolButton
      key={label}
      label={label}
      pressed={editor.isActive(active)}
      onClick={() => toggle(chain()).run()}
    />
  ));
}

function TextStyleSelect({ editor }: { editor: Editor }) {
  const chain = chainOf(editor);
  return (
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
  );
}

/** The blocks only an article has: callouts, tables and images. */
function ArticleTools({
  editor,
  uploading,
  onImage,
  onImageDescription,
}: {
  editor: Editor;
  uploading: boolean;
  onImage: () => void;
  onImageDescription: () => void;
}) {
  const chain = chainOf(editor);
  const inTable = editor.isActive('table');
  const callout = CALLOUT_VARIANTS.find((variant) => editor.isActive('callout', { variant }));
  return (
    <>
      <Separator />
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
      <Separator />
      <ToolButton
        label="Insert table"
        disabled={inTable}
        onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
      />
      {inTable &&
        TABLE_TOOLS.map(({ label, run }) => (
          <ToolButton key={label} label={label} onClick={() => run(chain()).run()} />
        ))}
      <Separator />
      <ToolButton label="Image" disabled={uploading} onClick={onImage} />
      {editor.isActive('image') && <ToolButton label="Image description" onClick={onImageDescription} />}
    </>
  );
}

/** The formatting toolbar; a message (compact) has text, emphasis, links, lists, quotes and code only. */
export function RichTextToolbar({
  editor,
  compact,
  uploading,
  onLink,
  onImage,
  onImageDescription,
}: {
  editor: Editor;
  compact: boolean;
  uploading: boolean;
  onLink: () => void;
  onImage: () => void;
  onImageDescription: () => void;
}) {
  const chain = chainOf(editor);
  return (
    <Toolbar label="Formatting" className="editor-toolbar">
      {!compact && (
        <>
          <TextStyleSelect editor={editor} />
          <Separator />
        </>
      )}
      <Toggles editor={editor} toggles={MARKS} />
      <ToolButton label="Link" pressed={editor.isActive('link')} onClick={onLink} />
      <Separator />
      <Toggles editor={editor} toggles={BLOCKS} />
      {!compact && (
        <ArticleTools
          editor={editor}
          uploading={uploading}
          onImage={onImage}
          onImageDescription={onImageDescription}
        />
      )}
      <Separator />
      <ToolButton label="Undo" disabled={!editor.can().undo()} onClick={() => chain().undo().run()} />
      <ToolButton label="Redo" disabled={!editor.can().redo()} onClick={() => chain().redo().run()} />
    </Toolbar>
  );
}
