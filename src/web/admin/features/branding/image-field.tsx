import { useEffect, useId } from 'react';

/** Object URLs of chosen images are let go when the choice changes. */
export function useObjectUrlCleanup(url: string | null) {
  useEffect(() => () => (url?.startsWith('blob:') ? URL.revokeObjectURL(url) : undefined), [url]);
}

/** An image chosen for the logo or background: undefined while unchanged, null to remove it. */
export interface ImageChoice {
  fileId: number | null | undefined;
  url: string | null;
}

export function ImageField({
  label,
  choice,
  error,
  onChoose,
  onRemove,
}: {
  label: string;
  choice: ImageChoice;
  error?: string | undefined;
  onChoose: (file: File) => void;
  onRemove: () => void;
}) {
  const id = useId();
  return (
    <div className="field image-field">
      <label htmlFor={id}>{label}</label>
      {choice.url ? (
        <img className="image-thumb" src={choice.url} alt={`Current ${label.toLowerCase()}`} />
      ) : (
        <p className="muted">None</p>
      )}
      <input
        id={id}
        type="file"
        accept="image/*"
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onChoose(file);
          event.target.value = '';
        }}
      />
      {choice.url && (
        <button type="button" className="button button-quiet" onClick={onRemove}>
          Remove the {label.toLowerCase()}
        </button>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
