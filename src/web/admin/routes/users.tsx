import { useState, type FormEvent } from 'react';
import { useLoaderData } from 'react-router';
import type { AdminUser, AdminUserList } from '../../../shared/api/admin.ts';
import { adminCall } from '../api/admin-api.ts';
import { Field, FormError } from '../components/field.tsx';
import { Modal } from '../components/modal.tsx';
import { fieldErrorsOf, messageOf, type FieldErrors } from '../lib/errors.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useSession } from '../features/session/session.tsx';

export const usersLoader = (): Promise<AdminUserList> => adminCall('listUsers');

const blank = { email: '', name: '', password: '', is_admin: false };

function AddUserForm({ onAdded }: { onAdded: (user: AdminUser) => void }) {
  const [form, setForm] = useState(blank);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      const user = await adminCall('createUser', {
        body: { ...form, email: form.email.trim(), name: form.name.trim() },
      });
      setForm(blank);
      onAdded(user);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      setMessage(Object.keys(fields).length ? 'Check the fields marked below.' : messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="add-user" onSubmit={handleSubmit} noValidate aria-labelledby="add-user-heading">
      <h2 id="add-user-heading">Add a user</h2>
      <FormError message={message} />
      <div className="form-grid">
        <Field label="Name" error={errors.name}>
          <input
            type="text"
            autoComplete="off"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
        </Field>
        <Field label="Email" error={errors.email}>
          <input
            type="email"
            autoComplete="off"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
          />
        </Field>
        <Field label="Password" hint="At least 8 characters." error={errors.password}>
          <input
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
          />
        </Field>
        <div className="field checkbox-field">
          <label>
            <input
              type="checkbox"
              checked={form.is_admin}
              onChange={(e) => setForm({ ...form, is_admin: e.target.checked })}
            />
            Administrator
          </label>
        </div>
      </div>
      <button type="submit" className="button" disabled={busy}>
        Add user
      </button>
    </form>
  );
}

export function UsersPage() {
  usePageTitle('Users');
  const { user: me } = useSession();
  const [users, setUsers] = useState((useLoaderData() as AdminUserList).items);
  const [status, setStatus] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const replace = (user: AdminUser) => setUsers((list) => list.map((u) => (u.id === user.id ? user : u)));

  const setAdmin = async (user: AdminUser, isAdmin: boolean) => {
    setMessage(null);
    // The box follows the click at once; a refusal puts it back.
    replace({ ...user, is_admin: isAdmin });
    try {
      replace(await adminCall('updateUser', { params: { id: user.id }, body: { is_admin: isAdmin } }));
      setStatus(`${user.name} ${isAdmin ? 'is an administrator now' : 'is no longer an administrator'}.`);
    } catch (error) {
      replace(user);
      setMessage(messageOf(error));
    }
  };

  const remove = async () => {
    if (!deleting) return;
    const user = deleting;
    setDeleting(null);
    try {
      await adminCall('deleteUser', { params: { id: user.id } });
      setUsers((list) => list.filter((u) => u.id !== user.id));
      setStatus(`Deleted ${user.name}.`);
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  return (
    <div className="users-page">
      <h1 tabIndex={-1}>Users</h1>
      <FormError message={message} />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <table className="data-table">
        <caption className="visually-hidden">Users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Administrator</th>
            <th scope="col">Added</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>
                {user.name}
                {user.id === me.id && <span className="muted"> (you)</span>}
              </td>
              <td>{user.email}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${user.name} is an administrator`}
                  checked={user.is_admin}
                  disabled={user.id === me.id}
                  onChange={(e) => void setAdmin(user, e.target.checked)}
                />
              </td>
              <td>{new Date(user.created_at).toLocaleDateString('en-GB', { dateStyle: 'medium' })}</td>
              <td>
                {user.id !== me.id && (
                  <button
                    type="button"
                    className="tool tool-danger"
                    aria-label={`Delete ${user.name}`}
                    onClick={() => setDeleting(user)}
                  >
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <AddUserForm
        onAdded={(user) => {
          setUsers((list) => [...list, user]);
          setStatus(`Added ${user.name}.`);
        }}
      />
      {deleting && (
        <Modal title={`Delete ${deleting.name}?`} onClose={() => setDeleting(null)}>
          <p>They are signed out everywhere and can no longer sign in.</p>
          <div className="modal-actions">
            <button type="button" className="button button-danger" onClick={() => void remove()}>
              Delete
            </button>
            <button type="button" className="button button-secondary" onClick={() => setDeleting(null)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
