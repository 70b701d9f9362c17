import { useEffect, useState, type ChangeEvent } from 'react';
import { Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router';
import type { AdminUser, AdminUserList, UserListQuery } from '../../../shared/api/admin.ts';
import { PERSON_NAME_MAX, type UserRole } from '../../../shared/constants.ts';
import { adminCall } from '../api/admin-api.ts';
import { Field, FormError } from '../components/field.tsx';
import { Modal, ModalActions } from '../components/modal.tsx';
import { Pager } from '../components/pager.tsx';
import { TableHead } from '../components/table-head.tsx';
import { codeOf, messageOf, type FieldErrors } from '../lib/errors.ts';
import { useFormSubmission } from '../lib/use-form-submission.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useSession } from '../lib/use-session.ts';

type Group = NonNullable<UserListQuery['group']>;

/** The group and page the address asks for: the team unless `?group=customers`, page 1 unless `?page=N`. */
function listQuery(url: URL): { group: Group; page: number } {
  const group: Group = url.searchParams.get('group') === 'customers' ? 'customers' : 'team';
  const page = Number(url.searchParams.get('page'));
  return { group, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

interface UsersData {
  list: AdminUserList;
  /** Whether this server sends mail: invitations need it. */
  mail: boolean;
}

export const usersLoader = async ({ request }: LoaderFunctionArgs): Promise<UsersData> => {
  const [list, environments] = await Promise.all([
    adminCall('listUsers', { query: listQuery(new URL(request.url)) }),
    adminCall('getEnvironments'),
  ]);
  return { list, mail: environments.accounts.mail };
};

const NO_MAIL =
  'No mail server is set (SMTP_URL), so invitations cannot be sent. Add the customer with a password below instead.';

/** What an invitation's refusal says: a missing mail server in words the admin can act on. */
const inviteMessage = (error: unknown) => (codeOf(error) === 'mail_unavailable' ? NO_MAIL : messageOf(error));

/** A refused form's message: a pointer to the fields when they have their own, else the refusal in words. */
const refusal = (describe: (error: unknown) => string) => (error: unknown, fields: FieldErrors) =>
  Object.keys(fields).length ? 'Check the fields marked below.' : describe(error);

const ROLE_NAMES: Record<UserRole, string> = { admin: 'Administrator', agent: 'Agent', customer: 'Customer' };
/** The role in a sentence: "Ann is an agent now." */
const ROLE_PHRASES: Record<UserRole, string> = {
  admin: 'an administrator',
  agent: 'an agent',
  customer: 'a customer',
};
const ROLE_HINT = 'Administrators do everything; agents answer requests; customers use the help centre.';

const usersHref = (group: Group, page = 1) => {
  const params = new URLSearchParams();
  if (group === 'customers') params.set('group', group);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '.';
};

function RoleSelect({
  value,
  onChange,
  label,
  disabled = false,
  ...control
}: {
  value: UserRole;
  onChange: (role: UserRole) => void;
  label?: string;
  disabled?: boolean;
  /** Set by a Field around it: the id its label names, and its hint. */
  id?: string;
  'aria-describedby'?: string;
}) {
  return (
    <select
      {...control}
      value={value}
      aria-label={label}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as UserRole)}
    >
      {(Object.keys(ROLE_NAMES) as UserRole[]).map((role) => (
        <option key={role} value={role}>
          {ROLE_NAMES[role]}
        </option>
      ))}
    </select>
  );
}

/** A form's values, with each text one bound to its input by `bind`. */
function useFormValues<T extends Record<string, unknown>>(blank: T) {
  const [form, setForm] = useState(blank);
  const bind = (key: { [K in keyof T]: T[K] extends string ? K : never }[keyof T]) => ({
    value: form[key] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value }),
  });
  return { form, setForm, bind };
}

function AddUserForm({ group, onAdded }: { group: Group; onAdded: (user: AdminUser) => void }) {
  const blank = {
    email: '',
    name: '',
    password: '',
    role: (group === 'team' ? 'agent' : 'customer') as UserRole,
  };
  const { form, setForm, bind } = useFormValues(blank);
  const { errors, message, busy, submitWith } = useFormSubmission(refusal(messageOf));
  const handleSubmit = submitWith(async () => {
    const user = await adminCall('createUser', {
      body: { ...form, email: form.email.trim(), name: form.name.trim() },
    });
    setForm(blank);
    onAdded(user);
  });
  return (
    <form className="add-user" onSubmit={handleSubmit} noValidate aria-labelledby="add-user-heading">
      <h2 id="add-user-heading">Add a user</h2>
      <FormError message={message} />
      <div className="form-grid">
        <Field label="Name" error={errors.name}>
          <input type="text" autoComplete="off" {...bind('name')} />
        </Field>
        <Field label="Email" error={errors.email}>
          <input type="email" autoComplete="off" {...bind('email')} />
        </Field>
        <Field label="Password" hint="At least 8 characters." error={errors.password}>
          <input type="password" autoComplete="new-password" {...bind('password')} />
        </Field>
        <Field label="Role" hint={ROLE_HINT}>
          <RoleSelect value={form.role} onChange={(role) => setForm({ ...form, role })} />
        </Field>
      </div>
      <button type="submit" className="button" disabled={busy}>
        Add user
      </button>
    </form>
  );
}

/**
 * Invites a customer by email: the server makes the account and mails a link to choose a password. An address
 * invited before and not yet accepted gets a fresh link.
 */
function InviteForm({ mail, onInvited }: { mail: boolean; onInvited: (user: AdminUser) => void }) {
  const blank = { email: '', name: '' };
  const { form, setForm, bind } = useFormValues(blank);
  const [sent, setSent] = useState<string | null>(null);
  const { errors, message, busy, submitWith } = useFormSubmission(refusal(inviteMessage));
  const handleSubmit = submitWith(async () => {
    setSent(null);
    const user = await adminCall('inviteCustomer', {
      body: { email: form.email.trim(), name: form.name.trim() },
    });
    setForm(blank);
    setSent(`Invitation sent to ${user.email}.`);
    onInvited(user);
  });
  return (
    <form className="add-user" onSubmit={handleSubmit} noValidate aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a customer</h2>
      <p className="muted">
        They get an email with a link to choose their password, which also confirms their email and signs them
        in. The link works once, for 7&nbsp;days.
      </p>
      <FormError message={message} />
      <div className="form-grid">
        <Field label="Name" error={errors.name}>
          <input type="text" autoComplete="off" maxLength={PERSON_NAME_MAX} {...bind('name')} />
        </Field>
        <Field label="Email" error={errors.email}>
          <input type="email" autoComplete="off" maxLength={320} {...bind('email')} />
        </Field>
      </div>
      {!mail && (
        <p className="field-hint" id="invite-no-mail">
          {NO_MAIL}
        </p>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="button"
          disabled={busy || !mail}
          aria-describedby={mail ? undefined : 'invite-no-mail'}
        >
          {busy ? 'Sending…' : 'Send the invitation'}
        </button>
        {sent && (
          <span className="form-sent" role="status">
            {sent}
          </span>
        )}
      </div>
    </form>
  );
}

export function UsersPage() {
  usePageTitle('Users');
  const { user: me } = useSession();
  const { list, mail } = useLoaderData() as UsersData;
  const location = useLocation();
  const { group, page } = listQuery(new URL(location.pathname + location.search, window.location.origin));
  const [users, setUsers] = useState(list.items);
  useEffect(() => setUsers(list.items), [list]);
  const [status, setStatus] = useState('');
  /** What a resent invitation says where it can be seen (the status above is for screen readers). */
  const [notice, setNotice] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const replace = (user: AdminUser) => setUsers((list) => list.map((u) => (u.id === user.id ? user : u)));

  const setRole = async (user: AdminUser, role: UserRole) => {
    setMessage(null);
    // The choice shows at once; a refusal puts it back.
    replace({ ...user, role });
    try {
      replace(await adminCall('updateUser', { params: { id: user.id }, body: { role } }));
      setStatus(`${user.name} is ${ROLE_PHRASES[role]} now.`);
    } catch (error) {
      replace(user);
      setMessage(messageOf(error));
    }
  };

  const resend = async (user: AdminUser) => {
    setMessage(null);
    setNotice(null);
    try {
      replace(await adminCall('inviteCustomer', { body: { email: user.email, name: user.name } }));
      setStatus(`A new invitation is on its way to ${user.email}.`);
      setNotice(`A new invitation is on its way to ${user.email}.`);
    } catch (error) {
      setMessage(inviteMessage(error));
    }
  };

  /** A new invitee joins the list; one invited again keeps their place. */
  const invited = (user: AdminUser) =>
    setUsers((list) =>
      list.some((u) => u.id === user.id) ? list.map((u) => (u.id === user.id ? user : u)) : [...list, user],
    );

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
      <nav className="tabs" aria-label="Users">
        <Link to={usersHref('team')} aria-current={group === 'team' ? 'page' : undefined}>
          Team
        </Link>
        <Link to={usersHref('customers')} aria-current={group === 'customers' ? 'page' : undefined}>
          Customers
        </Link>
      </nav>
      <FormError message={message} />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {notice && <p className="form-sent">{notice}</p>}
      <div className="table-scroll">
        <table className="data-table data-table-stack">
          <caption className="visually-hidden">{group === 'team' ? 'The team' : 'Customers'}</caption>
          <TableHead columns={['Name', 'Email', 'Role', 'Email verified', 'Added']} actions />
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td className="stack-title">
                  {user.name}
                  {user.id === me.id && <span className="muted"> (you)</span>}
                </td>
                <td data-label="Email">{user.email}</td>
                <td data-label="Role">
                  <RoleSelect
                    label={`Role of ${user.name}`}
                    value={user.role}
                    disabled={user.id === me.id}
                    onChange={(role) => void setRole(user, role)}
                  />
                </td>
                <td data-label="Email verified">
                  {user.invited ? (
                    <span className="badge badge-invited">Invited</span>
                  ) : user.email_verified ? (
                    'Yes'
                  ) : (
                    'Not yet'
                  )}
                </td>
                <td data-label="Added">
                  {new Date(user.created_at).toLocaleDateString('en-GB', { dateStyle: 'medium' })}
                </td>
                <td className="row-actions">
                  {user.invited && (
                    <button
                      type="button"
                      className="tool"
                      aria-label={`Send ${user.name} a new invitation`}
                      title={mail ? 'Send a new invitation link' : NO_MAIL}
                      disabled={!mail}
                      onClick={() => void resend(user)}
                    >
                      Resend
                    </button>
                  )}
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
      </div>
      {users.length === 0 && (
        <p className="muted">
          {group === 'team' ? 'No one in the team yet.' : 'No customer has an account yet.'}
        </p>
      )}
      <Pager
        page={page}
        pageCount={list._meta.pageCount}
        totalCount={list._meta.totalCount}
        hrefOf={(n) => usersHref(group, n)}
      />
      {group === 'customers' && <InviteForm mail={mail} onInvited={invited} />}
      <AddUserForm
        key={group}
        group={group}
        onAdded={(user) => {
          setUsers((list) => [...list, user]);
          setStatus(`Added ${user.name}.`);
        }}
      />
      {deleting && (
        <Modal title={`Delete ${deleting.name}?`} onClose={() => setDeleting(null)}>
          <p>They are signed out everywhere and can no longer sign in.</p>
          <ModalActions onCancel={() => setDeleting(null)}>
            <button type="button" className="button button-danger" onClick={() => void remove()}>
              Delete
            </button>
          </ModalActions>
        </Modal>
      )}
    </div>
  );
}
