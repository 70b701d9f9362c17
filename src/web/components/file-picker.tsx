import { useLayoutEffect, useRef, useState, type DragEvent, type RefObject } from 'react';
import { ISSUE_FILES_MAX, UPLOAD_FILE_MAX_BYTES } from '../../shared/constants.ts';
import { useI18n, type Translate } from '../i18n/i18n.tsx';
import { sizeInKb } from '../lib/format.ts';
import { describedBy, FieldError } from './field-error.tsx';

const MEGABYTE = 1024 * 1024;

/**
 * What a choice of files leaves out, and why: each file over 25 MB by name and size, and the files past the 10 a
 * request takes (`room` is how many more fit).
 */
function refusalsOf(chosen: File[], room: number, t: Translate, lang: string): string[] {
  const megabytes = (bytes: number) =>
    (Math.round((bytes / MEGABYTE) * 10) / 10).toLocaleString(lang, { maximumFractionDigits: 1 });
  const fitting = chosen.filter((file) => file.size <= UPLOAD_FILE_MAX_BYTES);
  return [
    ...chosen
      .filter((file) => file.size > UPLOAD_FILE_MAX_BYTES)
      .map((file) =>
        t('fileTooLarge', {
          name: file.name,
          size: megabytes(file.size),
          max: UPLOAD_FILE_MAX_BYTES / MEGABYTE,
        }),
      ),
    ...(fitting.length > room ? [t('tooManyFiles', { max: ISSUE_FILES_MAX })] : []),
  ];
}

/**
 * The files of a request: a real `<input type=file multiple>` (so the keyboard, screen readers and the system's
 * picker work as anywhere) drawn as a drop zone with a button, the chosen files listed with their size and a remove
 * button each. A file over 25 MB, or past the 10 a request takes, is refused here with a message on the field,
 * before anything is sent. The files themselves are kept by the form, which uploads them when it sends.
 */
export function FilePicker({
  id,
  files,
  onChange,
  error,
  onError,
}: {
  id: string;
  files: File[];
  onChange: (files: File[]) => void;
  error: string | undefined;
  onError: (message: string | undefined) => void;
}) {
  const { t, lang } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [dragging, setDragging] = useState(false);
  const focusAfterRemoval = useFocusAfterRemoval(files, list, input);

  const add = (chosen: File[]) => {
    const fitting = chosen.filter((file) => file.size <= UPLOAD_FILE_MAX_BYTES);
    const room = Math.max(0, ISSUE_FILES_MAX - files.length);
    const refused = refusalsOf(chosen, room, t, lang);
    if (fitting.length > 0 && room > 0) onChange([...files, ...fitting.slice(0, room)]);
    onError(refused.length > 0 ? refused.join(' ') : undefined);
    // The same file can be chosen again after it was removed.
    if (input.current) input.current.value = '';
  };

  const remove = (index: number) => {
    focusAfterRemoval(index);
    onChange(files.filter((_, i) => i !== index));
    onError(undefined);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(Array.from(event.dataTransfer.files));
  };

  return (
    <div className="field">
      <span id={`${id}-label`} className="field-label">
        {t('filesLabel')}
      </span>
      <div
        className={`file-drop${dragging ? ' is-dragging' : ''}`}
        data-invalid={error ? 'true' : undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <input
          ref={input}
          id={id}
          name="files"
          type="file"
          multiple
          className="file-input"
          aria-labelledby={`${id}-label ${id}-choose`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(`${id}-hint`, `${id}-count`, error && `${id}-error`)}
          onChange={(event) => add(Array.from(event.target.files ?? []))}
        />
        <svg className="file-drop-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 15v3.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V15" />
        </svg>
        <label htmlFor={id} id={`${id}-choose`} className="button button-secondary file-choose">
          {t('chooseFiles')}
        </label>
        <span className="file-drop-text">{t('dropFiles')}</span>
      </div>
      {/* The spec's hint as written, in an element of its own; ours (the count the server takes) beside it. */}
      <div className="file-hints">
        <p id={`${id}-hint`} className="field-hint">
          {t('fileHint')}
        </p>
        <p id={`${id}-count`} className="field-hint">
          {t('filesCountHint', { max: ISSUE_FILES_MAX })}
        </p>
      </div>
      <FieldError id={`${id}-error`} message={error} />
      {files.length > 0 && <ChosenFiles files={files} list={list} onRemove={remove} />}
    </div>
  );
}

/**
 * After a removal, focus goes to the remove button now in its place (or the one before, or the picker); the returned
 * function notes which place. In the commit that removed the button, so focus is never left on nothing (Preact runs
 * passive effects a frame later, where React ran them at once after the click).
 */
function useFocusAfterRemoval(
  files: File[],
  list: RefObject<HTMLUListElement | null>,
  input: RefObject<HTMLInputElement | null>,
) {
  const removedAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    const index = removedAt.current;
    if (index === null) return;
    removedAt.current = null;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
    (buttons[Math.min(index, buttons.length - 1)] ?? input.current)?.focus();
  }, [files, list, input]);
  return (index: number) => {
    removedAt.current = index;
  };
}

/** The chosen files, each with its size and a button that removes it. */
function ChosenFiles({
  files,
  list,
  onRemove,
}: {
  files: File[];
  list: RefObject<HTMLUListElement | null>;
  onRemove: (index: number) => void;
}) {
  const { t } = useI18n();
  return (
    <ul ref={list} className="attached-files" aria-label={t('filesChosen')}>
      {files.map((file, index) => (
        <li key={`${file.name}-${file.size}-${index}`} className="attached-file">
          <svg className="attached-file-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5Zm0 0v5h5" />
          </svg>
          <span className="attached-file-name">{file.name}</span>
          <span className="file-size">{t('fileSize', { size: sizeInKb(file.size) })}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={t('removeFile', { name: file.name })}
            onClick={() => onRemove(index)}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </button>
        </li>
      ))}
    </ul>
  );
}
