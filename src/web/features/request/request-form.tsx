import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import { REQUEST_TOAST_MS, SENT_STATE_MS, ISSUE_NAME_MAX } from '../../../shared/constants.ts';
import { href } from '../../../shared/paths.ts';
import { withLang } from '../../../shared/page-language.ts';
import { describedBy, FieldError } from '../../components/field-error.tsx';
import { FilePicker } from '../../components/file-picker.tsx';
import { useToast } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { portalLinks } from '../../lib/portal-links.ts';
import { readAuthToken, readItem, storageKeys, writeItem } from '../../lib/storage.ts';
import type { TrailStep } from '../../lib/trail.ts';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid.ts';
import { useHeldFor } from '../../lib/use-held-for.ts';
import { useRootData } from '../../lib/use-root-data.ts';
import { useAuth } from '../../api/use-auth.tsx';
import { ApiRequestError, fieldErrorsOf } from '../../api/call.ts';
import { formField, openIssue, uploadFiles } from './request-api.ts';
import { useCaptcha } from './use-captcha.ts';
import { CaptchaField } from './captcha-field.tsx';
import { RequestSentNote, type SentRequest } from './request-sent.tsx';
import { RequestSuggestions, useOpenedSuggestions } from './request-suggestions.tsx';

type Field = 'name' | 'email' | 'description';
type Errors = Partial<Record<Field | 'files' | 'captcha' | 'form', string>>;

/** The spec's request description: the visitor's text, then where they were (trail and the article's address). */
export function composeDescription(text: string, trail: TrailStep[], articleUrl: string): string {
  const where = trail.map((step) => step.name).join(' > ');
  return `${text.trim()}\n\n---\n${where}\n${articleUrl}`;
}

/**
 * "Not you?": the link's name and email belong to someone else. Forgets them, in storage and in the address (where
 * a reload would save them again), keeping the router's own history state.
 */
function forgetLinkedVisitor(): void {
  writeItem(storageKeys.megapolName, null);
  writeItem(storageKeys.megapolEmail, null);
  const url = new URL(window.location.href);
  if (!url.searchParams.has(storageKeys.megapolName) && !url.searchParams.has(storageKeys.megapolEmail))
    return;
  url.searchParams.delete(storageKeys.megapolName);
  url.searchParams.delete(storageKeys.megapolEmail);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * The support-request form: name, email, message and files; every invalid field (empty, refused by the server, a
 * file too large) marked alike, with focus on the first. After a send, as the spec says, a disabled "sent" button
 * for 5 seconds and a toast reading 'Sent' for 5 seconds; beside them, a note under the button saying what happens
 * next, which stays. Loaded only when the visitor opens it.
 */
export default function RequestForm({
  formId,
  instruction,
  trail,
}: {
  formId: string;
  instruction: Instruction;
  trail: TrailStep[];
}) {
  const { t, pageLang } = useI18n();
  const { branding, environments, sections } = useRootData();
  const { user } = useAuth();
  const [values, setValues] = useState({ name: '', email: '', description: '' });
  const [locked, setLocked] = useState({ name: false, email: false });
  // Where fixed values came from: the visitor's own account, or a link anyone may have sent them.
  const [prefill, setPrefill] = useState<'account' | 'link' | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [justSent, holdSent] = useHeldFor<true>();
  // The spec's toast, 'Sent' for 5 seconds, in the page's one toast region; the note under the button says the rest.
  const showToast = useToast(REQUEST_TOAST_MS, 'request-toast');
  const [sent, setSent] = useState<SentRequest | null>(null);
  const sentNote = useRef<HTMLDivElement>(null);
  const [round, setRound] = useState(0);
  const captcha = useCaptcha(environments, round);
  const { form, focusFirstInvalid } = useFocusFirstInvalid();
  const suggestions = useOpenedSuggestions();

  // Name and email come from the account, or from the link's megapolName/megapolEmail; then they are fixed.
  useEffect(() => {
    const name = user?.name ?? readItem(storageKeys.megapolName);
    const email = user?.email ?? readItem(storageKeys.megapolEmail);
    setValues((current) => ({ ...current, name: name ?? current.name, email: email ?? current.email }));
    setLocked({ name: Boolean(name), email: Boolean(email) });
    setPrefill(user ? 'account' : name || email ? 'link' : null);
  }, [user]);

  const clearLinkedVisitor = () => {
    forgetLinkedVisitor();
    // The button goes away with the prefill: focus moves on to the field to fill in instead of being lost.
    flushSync(() => {
      setValues((current) => ({ ...current, name: '', email: '' }));
      setLocked({ name: false, email: false });
      setPrefill(null);
      setErrors((current) => ({ ...current, name: undefined, email: undefined }));
    });
    nameInput.current?.focus();
  };

  // The note is where the visitor's eyes and focus go once sent: the button they pressed is disabled. In the commit
  // that shows it (a layout effect), not a frame later.
  useLayoutEffect(() => {
    if (!sent) return;
    sentNote.current?.focus();
    sentNote.current?.scrollIntoView({ block: 'nearest' });
  }, [sent]);

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setSent(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Errors = {};
    for (const field of ['name', 'email', 'description'] as const) {
      if (!values[field].trim()) missing[field] = t('fieldRequired');
    }
    setErrors(missing);
    if (Object.keys(missing).length > 0) return focusFirstInvalid();

    setSending(true);
    const token = readAuthToken();
    const section = sections.find((s) => s.id === instruction.section_id);
    const articleUrl = `${environments.knowledge_portal}${withLang(href.instruction(instruction.id), pageLang)}`;
    try {
      const uploaded = files.length ? await uploadFiles(files, token) : [];
      const result = await openIssue(
        {
          title: [branding.site_title, section?.name].filter(Boolean).join(': '),
          description: composeDescription(values.description, trail, articleUrl),
          channel: 'web',
          name: values.name.trim(),
          email: values.email.trim(),
          files: uploaded.map((file) => file.id),
          g_recaptcha_response: captcha.read(),
          // The page's language: the ticket records it (its title and trail are already in it).
          ...(pageLang && { lang: pageLang }),
        },
        token,
      );
      setValues((current) => ({
        name: locked.name ? current.name : '',
        email: locked.email ? current.email : '',
        description: '',
      }));
      suggestions.onSent();
      setFiles([]);
      setErrors({});
      setSending(false);
      holdSent(true, SENT_STATE_MS);
      showToast(t('sent'));
      setSent({ id: result.data.id, email: values.email.trim(), link: result.link });
    } catch (error) {
      setSending(false);
      const fields = fieldErrorsOf(error, formField);
      if (Object.keys(fields).length > 0) {
        setErrors(fields as Errors);
        focusFirstInvalid();
      } else setErrors({ form: error instanceof ApiRequestError ? error.message : t('errorOccurred') });
    } finally {
      // A captcha answer is good for one request only.
      setRound((value) => value + 1);
    }
  };

  const fieldProps = (field: Field) => ({
    id: `${formId}-${field}`,
    name: field,
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': describedBy(errors[field] && `${formId}-${field}-error`),
  });
  const fieldError = (field: Field) => <FieldError id={`${formId}-${field}-error`} message={errors[field]} />;
  const requestsHref = user ? portalLinks(branding, environments).tickets : null;

  return (
    <>
      <form
        ref={form}
        id={`${formId}-form`}
        className="request-form"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <div className="field">
          <label htmlFor={`${formId}-name`}>{t('nameLabel')}</label>
          <input
            {...fieldProps('name')}
            ref={nameInput}
            type="text"
            autoComplete="name"
            maxLength={ISSUE_NAME_MAX}
            disabled={locked.name}
            onChange={(e) => change('name', e.target.value)}
          />
          {fieldError('name')}
        </div>
        <div className="field">
          <label htmlFor={`${formId}-email`}>{t('emailLabel')}</label>
          <input
            {...fieldProps('email')}
            type="email"
            autoComplete="email"
            maxLength={320}
            disabled={locked.email}
            onChange={(e) => change('email', e.target.value)}
          />
          {fieldError('email')}
        </div>
        {prefill === 'account' && <p className="field-hint">{t('prefilledFromAccount')}</p>}
        {prefill === 'link' && (
          <p className="field-hint prefill-note">
            <span>{t('prefilledFromLink')}</span>
            <button type="button" className="text-button" onClick={clearLinkedVisitor}>
              {t('notYou')}
            </button>
          </p>
        )}
        <div className="field">
          <label htmlFor={`${formId}-description`}>{t('messageLabel')}</label>
          <textarea
            {...fieldProps('description')}
            rows={6}
            maxLength={19_000}
            onChange={(e) => change('description', e.target.value)}
          />
          {fieldError('description')}
        </div>
        <RequestSuggestions
          id={`${formId}-suggestions`}
          message={values.description}
          excludeId={instruction.id}
          onOpen={suggestions.onOpen}
        />
        <FilePicker
          id={`${formId}-files`}
          files={files}
          onChange={(chosen) => {
            setFiles(chosen);
            setSent(null);
          }}
          error={errors.files}
          onError={(message) => setErrors((current) => ({ ...current, files: message }))}
        />
        <CaptchaField captcha={captcha} error={errors.captcha} errorId={`${formId}-captcha-error`} />
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <button
          type="submit"
          className="button"
          disabled={sending || justSent || captcha.state === 'working'}
        >
          {justSent ? t('sent') : sending ? t('sending') : t('send')}
        </button>
      </form>
      <div className="request-sent-region" role="status">
        {sent && (
          <div ref={sentNote} className="request-sent" tabIndex={-1}>
            <p className="request-sent-title">{t('requestSentToast')}</p>
            <RequestSentNote
              sent={sent}
              signedIn={Boolean(user)}
              requestsHref={requestsHref}
              ownPortal={environments.user_portal === ''}
              mail={environments.accounts.mail}
            />
          </div>
        )}
      </div>
    </>
  );
}
