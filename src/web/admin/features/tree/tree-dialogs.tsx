import { useId, useState, type FormEvent } from 'react';
import type { DeleteQuery, MoveBody } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { Field, FormError, RadioChoice } from '../../components/field.tsx';
import { Modal, ModalActions } from '../../components/modal.tsx';
import { TITLE_MAX, type Visibility } from '../../../../shared/constants.ts';
import { VisibilityField } from '../../components/visibility-field.tsx';
import { codeOf, fieldErrorsOf, messageOf, type FieldErrors } from '../../lib/errors.ts';
import { destinationsFor, moveTo, refugesFor, type Forest, type TreeNode } from '../../lib/tree-model.ts';

/**
 * Create or rename: one name (and, for a section or category, who can read it), with the server's message under it
 * when it refuses.
 */
export function NameDialog({
  title,
  initial = '',
  initialVisibility,
  submitLabel,
  onSubmit,
  onClose,
}: {
  title: string;
  initial?: string;
  /** Given: the dialog also asks who can read it. */
  initialVisibility?: Visibility;
  submitLabel: string;
  onSubmit: (name: string, visibility: Visibility | undefined) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [visibility, setVisibility] = useState(initialVisibility);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setErrors({ name: 'Enter a name.' });
      return;
    }
    setBusy(true);
    try {
      await onSubmit(name.trim(), visibility);
      onClose();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      setMessage(fields.name ? null : messageOf(error));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={handleSubmit} noValidate className="modal-form">
        <FormError message={message} />
        <Field label="Name" error={errors.name}>
          <input
            type="text"
            value={name}
            maxLength={TITLE_MAX}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        {visibility && (
          <VisibilityField value={visibility} onChange={setVisibility} error={errors.visibility} />
        )}
        <ModalActions onCancel={onClose}>
          <button type="submit" className="button" disabled={busy}>
            {submitLabel}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}

/** The keyboard's and the screen reader's way to move anything anywhere, with the same move call as drag and drop. */
export function MoveDialog({
  forest,
  node,
  onMove,
  onClose,
}: {
  forest: Forest;
  node: TreeNode;
  onMove: (body: MoveBody) => Promise<void>;
  onClose: () => void;
}) {
  const destinations = destinationsFor(forest, node.key);
  const [target, setTarget] = useState(node.parentKey ?? destinations[0]?.key ?? '');
  const [position, setPosition] = useState<'start' | 'end'>('end');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const positionName = useId();
  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const destination = destinations.find((d) => d.key === target);
    if (!destination) return;
    setBusy(true);
    try {
      await onMove(moveTo(node, destination, position));
      onClose();
    } catch (error) {
      setMessage(messageOf(error));
      setBusy(false);
    }
  };
  return (
    <Modal title={`Move “${node.name}”`} onClose={onClose}>
      <form onSubmit={handleSubmit} className="modal-form">
        <FormError message={message} />
        <Field label="Move to">
          <select value={target} onChange={(e) => setTarget(e.target.value)} autoFocus>
            {destinations.map((d) => (
              <option key={d.key} value={d.key}>
                {d.label}
                {d.node.kind === 'section' ? ' (top level)' : ''}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="choice-group">
          <legend>Position</legend>
          <RadioChoice
            name={positionName}
            checked={position === 'start'}
            onSelect={() => setPosition('start')}
          >
            At the start
          </RadioChoice>
          <RadioChoice name={positionName} checked={position === 'end'} onSelect={() => setPosition('end')}>
            At the end
          </RadioChoice>
        </fieldset>
        <ModalActions onCancel={onClose}>
          <button type="submit" className="button" disabled={busy}>
            Move
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}

function deleteItem(node: TreeNode, query: DeleteQuery) {
  if (node.kind === 'section') return adminCall('deleteSection', { params: { id: node.id }, query: query });
  if (node.kind === 'category') return adminCall('deleteCategory', { params: { id: node.id }, query: query });
  return adminCall('deleteArticle', { params: { id: node.id } });
}

/**
 * Delete asks first; when the server answers 409 not_empty the dialog asks what becomes of the contents: deleted
 * with it, or moved somewhere outside it first.
 */
export function DeleteDialog({
  forest,
  node,
  onDeleted,
  onClose,
}: {
  forest: Forest;
  node: TreeNode;
  onDeleted: () => Promise<void>;
  onClose: () => void;
}) {
  const refuges = refugesFor(forest, node.key);
  const [stage, setStage] = useState<'confirm' | 'not-empty'>('confirm');
  const [choice, setChoice] = useState<'move' | 'delete'>(refuges.length > 0 ? 'move' : 'delete');
  const [target, setTarget] = useState(refuges[0]?.key ?? '');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choiceName = useId();

  const run = async (query: DeleteQuery) => {
    setBusy(true);
    setMessage(null);
    try {
      await deleteItem(node, query);
      await onDeleted();
      onClose();
    } catch (error) {
      if (codeOf(error) === 'not_empty' && node.kind !== 'article') setStage('not-empty');
      else setMessage(messageOf(error));
      setBusy(false);
    }
  };
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (stage === 'confirm') return void run({});
    if (choice === 'delete') return void run({ content: 'delete' });
    const refuge = refuges.find((d) => d.key === target);
    if (!refuge) return;
    void run(
      refuge.node.kind === 'section'
        ? { move_to_section_id: refuge.node.id }
        : { move_to_category_id: refuge.node.id },
    );
  };

  return (
    <Modal title={`Delete “${node.name}”`} onClose={onClose}>
      <form onSubmit={handleSubmit} className="modal-form">
        <FormError message={message} />
        {stage === 'confirm' ? (
          <p>
            {node.kind === 'article'
              ? 'The article and all its revisions will be deleted. This cannot be undone.'
              : `Delete this ${node.kind}? This cannot be undone.`}
          </p>
        ) : (
          <fieldset className="choice-group">
            <legend>“{node.name}” is not empty. What should happen to what is inside it?</legend>
            {refuges.length > 0 && (
              <RadioChoice name={choiceName} checked={choice === 'move'} onSelect={() => setChoice('move')}>
                Move it first
              </RadioChoice>
            )}
            {choice === 'move' && refuges.length > 0 && (
              <Field label="Move the contents to" className="nested-field">
                <select value={target} onChange={(e) => setTarget(e.target.value)}>
                  {refuges.map((d) => (
                    <option key={d.key} value={d.key}>
                      {d.label}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            <RadioChoice name={choiceName} checked={choice === 'delete'} onSelect={() => setChoice('delete')}>
              Delete everything inside it too
            </RadioChoice>
          </fieldset>
        )}
        <ModalActions onCancel={onClose}>
          <button type="submit" className="button button-danger" disabled={busy}>
            {stage === 'confirm'
              ? 'Delete'
              : choice === 'move'
                ? 'Move the contents and delete'
                : 'Delete all'}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}
