import { useState, type FormEvent, type ReactNode } from 'react';
import { FormError } from './form-parts.tsx';
import { usePortalForm } from './use-portal-form.ts';

/** One form of the profile: its own fields, errors, busy state and the line that says it worked. */
export function useProfileForm() {
  const { errors, setErrors, busy, send } = usePortalForm();
  const [done, setDone] = useState<string | null>(null);
  const run = async (event: FormEvent, action: () => Promise<string>) => {
    event.preventDefault();
    setDone(null);
    await send(async () => {
      setDone(await action());
      setErrors({});
    });
  };
  return { errors, busy, done, run };
}

type ProfileFormState = ReturnType<typeof useProfileForm>;

/** A form of the profile that says so when it worked. */
export function ProfileForm({
  form,
  action,
  button,
  children,
}: {
  form: ProfileFormState;
  action: () => Promise<string>;
  button: string;
  children: ReactNode;
}) {
  return (
    <form className="portal-form" method="post" noValidate onSubmit={(event) => void form.run(event, action)}>
      {children}
      <FormError message={form.errors.form} />
      <button type="submit" className="button" disabled={form.busy}>
        {button}
      </button>
      <Done text={form.done} />
    </form>
  );
}

/** One part of the profile, under its heading. */
export function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="profile-block">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The line that says a form worked, announced. */
function Done({ text }: { text: string | null }) {
  return text ? (
    <p className="form-done" role="status">
      {text}
    </p>
  ) : null;
}
