import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { call } from '../api/call.ts';
import { FilePicker } from '../components/file-picker.tsx';
import { useAuth } from '../api/use-auth.tsx';
import { uploadFiles } from '../features/request/request-api.ts';
import { RequestSentNote, type SentRequest } from '../features/request/request-sent.tsx';
import { RequestSuggestions, useOpenedSuggestions } from '../features/request/request-suggestions.tsx';
import { useCaptcha } from '../features/request/use-captcha.ts';
import { readAuthToken } from '../lib/storage.ts';
import { authHeaders } from './auth-headers.ts';
import { CaptchaSubmit, EmailField, Panel, TextField } from './form-parts.tsx';
import { PageLoading, usePortalData } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { useFormValues, usePortalForm } from './use-portal-form.ts';

/** The portal's note on every request sent from its own form, as the specification words it (in English). */
export const PORTAL_REQUEST_NOTE = 'The request was created through the client portal.';

/** The request's title in the team's inbox: the first line of the message, shortened. */
export function titleOf(message: string): string {
  const line = message.trim().split('\n')[0]!.trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** What the form asks for; the email only of a visitor not signed in. */
type RequestValues = { name: string; surname: string; email: string; message: string };

/** /issues/create: the portal's own request form (name, surname, message, files; email when not signed in). */
export function NewIssuePage() {
  const { p, t } = usePortalTexts();
  const { environments } = usePortalData();
  const { user, checked } = useAuth();
  const { form, errors, setErrors, setFieldError, busy, failures, send, complete } = usePortalForm();
  const { values, setValues, set } = useFormValues<RequestValues>(
    { name: '', surname: '', email: '', message: '' },
    setErrors,
  );
  const [files, setFiles] = useState<File[]>([]);
  const [sent, setSent] = useState<SentRequest | null>(null);
  const captcha = useCaptcha(environments, failures);
  const suggestions = useOpenedSuggestions();
  useEffect(() => {
    if (!user) return;
    const [first = '', ...rest] = user.name.split(' ');
    setValues((current) => ({ ...current, name: first, surname: rest.join(' '), email: user.email }));
  }, [user]);

  if (sent) return <SentPanel sent={sent} signedIn={Boolean(user)} mail={environments.accounts.mail} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const blank = (field: keyof typeof values) => !values[field].trim();
    if (!complete({ name: blank('name'), message: blank('message'), email: !user && blank('email') })) return;
    await send(async () => {
      const request = await openRequest(values, user?.email ?? null, files, captcha.read);
      suggestions.onSent();
      setSent(request);
    });
  };
  if (!checked) return <PageLoading />;
  return (
    <Panel title={p('createTitle')}>
      <form
        ref={form}
        className="portal-form"
        method="post"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <div className="field-row">
          <TextField
            id="name"
            label={t('nameLabel')}
            autoComplete="given-name"
            maxLength={100}
            value={values.name}
            onChange={set('name')}
            error={errors.name}
          />
          <TextField
            id="surname"
            label={p('surnameLabel')}
            autoComplete="family-name"
            maxLength={100}
            value={values.surname}
            onChange={set('surname')}
            error={errors.surname}
          />
        </div>
        {!user && <EmailField value={values.email} onChange={set('email')} error={errors.email} />}
        <TextField
          id="message"
          label={t('messageLabel')}
          multiline
          maxLength={19_000}
          value={values.message}
          onChange={set('message')}
          error={errors.message ?? errors.description}
        />
        <RequestSuggestions
          id="suggestions"
          message={values.message}
          onOpen={suggestions.onOpen}
          headingLevel={2}
        />
        <FilePicker
          id="files"
          files={files}
          onChange={setFiles}
          error={errors.files}
          onError={(message) => setFieldError('files', message)}
        />
        <CaptchaSubmit captcha={captcha} errors={errors} formError={errors.form ?? errors.title} busy={busy}>
          {busy ? t('sending') : t('send')}
        </CaptchaSubmit>
      </form>
    </Panel>
  );
}

/**
 * Opens the request (its files uploaded first) as the signed-in visitor (`accountEmail`) or the one the form names;
 * the captcha's answer is read last, once the uploads are done.
 */
async function openRequest(
  values: RequestValues,
  accountEmail: string | null,
  files: File[],
  readCaptcha: () => string | undefined,
): Promise<SentRequest> {
  const token = readAuthToken();
  const uploaded = files.length ? await uploadFiles(files, token) : [];
  const email = accountEmail ?? values.email.trim();
  const result = await call('issueOpen', {
    body: {
      title: titleOf(values.message),
      description: `${values.message.trim()}\n\n---\n${PORTAL_REQUEST_NOTE}`,
      channel: 'web',
      name: [values.name.trim(), values.surname.trim()].filter(Boolean).join(' '),
      email,
      files: uploaded.map((file) => file.id),
      g_recaptcha_response: readCaptcha(),
    },
    headers: authHeaders(),
  });
  return { id: result.data.id, email, link: result.link };
}

/**
 * What replaces the form once the request is sent. Focus goes to it rather than to the page's start, in the same
 * commit.
 */
function SentPanel({ sent, signedIn, mail }: { sent: SentRequest; signedIn: boolean; mail: boolean }) {
  const { p } = usePortalTexts();
  const sentNote = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    sentNote.current?.focus();
  }, [sent]);
  return (
    <Panel title={p('createdTitle')}>
      <div ref={sentNote} className="request-sent-text" role="status" tabIndex={-1}>
        <RequestSentNote sent={sent} signedIn={signedIn} ownPortal mail={mail} />
      </div>
    </Panel>
  );
}
