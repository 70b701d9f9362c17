import { useState, type ChangeEvent } from 'react';
import type { AdminUser, UserListQuery } from '../../../../shared/api/admin.ts';
import { PERSON_NAME_MAX, type UserRole } from '../../../../shared/constants.ts';
import { adminCall } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { messageOf, type FieldErrors } from '../../lib/errors.ts';
import { useFormSubmission } from '../../lib/use-form-submission.ts';
import { inviteMessage, NO_MAIL, ROLE_HINT, ROLE_NAMES } from './user-texts.ts';

/** Who the list shows: the team or the customers. */
export type Group = NonNullable<UserListQuery['group']>;

/** A refused form's message: a pointer to the fields when they have their own, else the refusal in words. */
const refusal = (describe: (error: unknown) => string) => (error: unknown, fields: FieldErrors) =>
  Object.keys(fields).length ? 'Check the fields marked below.' : describe(error);

export function RoleSelect({
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

export function AddUserForm({ group, onAdded }: { group: Group; onAdded: (user: AdminUser) => void }) {
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
export function InviteForm({ mail, onInvited }: { mail: boolean; onInvited: (user: AdminUser) => void }) {
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
