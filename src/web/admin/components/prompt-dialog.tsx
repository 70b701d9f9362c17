import { useState, type FormEvent } from 'react';
import { Field } from './field.tsx';
import { Modal, ModalActions } from './modal.tsx';

/** One value asked for in a dialog (a link's address, an image's description). */
export function PromptDialog({
  title,
  label,
  initial = '',
  hint,
  type = 'text',
  submitLabel = 'Apply',
  onSubmit,
  onClose,
}: {
  title: string;
  label: string;
  initial?: string;
  hint?: string;
  type?: 'text' | 'url';
  submitLabel?: string;
  onSubmit: (value: string) => void;
  onClose: () => void;
}) {
  const [value, setValue] = useState(initial);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(value.trim());
    onClose();
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={handleSubmit} className="modal-form" noValidate>
        <Field label={label} hint={hint}>
          <input type={type} value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
        <ModalActions onCancel={onClose}>
          <button type="submit" className="button">
            {submitLabel}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}
