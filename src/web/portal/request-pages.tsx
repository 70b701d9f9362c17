import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLoaderData, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { PagedList } from '../../shared/api/common.ts';
import type { PortalTicket, PortalTicketSummary } from '../../shared/api/portal.ts';
import { href } from '../../shared/paths.ts';
import { ApiRequestError, call } from '../api/call.ts';
import { apiFrom, type LoaderContext } from '../api/api-context.ts';
import { HtmlContent } from '../components/html-content.tsx';
import { useAuth } from '../api/use-auth.tsx';
import { uploadFiles } from '../features/request/request-api.ts';
import { useCaptcha } from '../features/request/use-captcha.ts';
import { sizeInKb } from '../lib/format.ts';
import { readAuthToken } from '../lib/storage.ts';
import { authHeaders } from './auth-headers.ts';
import { CaptchaSubmit, EmailField, FormError, Panel, TextField } from './form-parts.tsx';
import { FilePicker } from '../components/file-picker.tsx';
import { RequestSentNote, type SentRequest } from '../features/request/request-sent.tsx';
import { RequestSuggestions, useOpenedSuggestions } from '../features/request/request-suggestions.tsx';
import { PageLoading, usePortalData, SignedIn } from './portal-layout.tsx';
import { usePortalTexts, type PortalKey } from './portal-texts.ts';
import { useFormValues, usePortalForm } from './use-portal-form.ts';

const MESSAGE_MAX = 20_000;
/** The portal's note on every request sent from its own form, as the specification words it (in English). */
export const PORTAL_REQUEST_NOTE = 'The request was created through the client portal.';

/**
 * Whether a loader can ask for the visitor's own requests: on the server, when the page is rendered for a visitor
 * known by their session cookie; in the browser, when a token is kept. Otherwise the page shows its sign-in prompt.
 */
const knowsVisitor = (context: unknown) => {
  const server = context as Partial<LoaderContext> | undefined;
  return server?.api ? server.session === true : readAuthToken() !== null;
};

/** /issues: the visitor's requests of that page, rendered on the server for a signed-in visitor. */
export async function issuesLoader({ request, context }: LoaderFunctionArgs): Promise<IssuesData> {
  if (!knowsVisitor(context)) return { list: null };
  const page = Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1);
  return apiFrom(context)
    .call('listMyIssues', { query: { page } })
    .then(
      (list) => ({ list }),
      () => ({ list: null }),
    );
}

interface IssuesData {
  list: PagedList<PortalTicketSummary> | null;
}

/** /issues/{id}: the conversation, rendered on the server for its requester (by session cookie or private key). */
export async function issueLoader({ request, params, context }: LoaderFunctionArgs): Promise<IssueData> {
  const key = new URL(request.url).searchParams.get('key') ?? undefined;
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0 || (!key && !knowsVisitor(context))) return { ticket: null };
  return apiFrom(context)
    .call('getMyIssue', { params: { id }, query: key ? { key } : {} })
    .then(
      (ticket) => ({ ticket }),
      () => ({ ticket: null }),
    );
}

interface IssueData {
  ticket: PortalTicket | null;
}

function useDate() {
  const { lang } = usePortalTexts();
  return (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

function StatusBadge({ status }: { status: PortalTicketSummary['status'] }) {
  const { p } = usePortalTexts();
  return <span className={`status-badge status-${status}`}>{p(`status_${status}` as PortalKey)}</span>;
}

function SignInPrompt({ text }: { text: string }) {
  const { p } = usePortalTexts();
  return (
    <Panel title={p('myRequests')}>
      <p>{text}</p>
      <Link className="button" to={href.portalLogin()}>
        {p('signInButton')}
      </Link>
    </Panel>
  );
}

/** /issues: the signed-in visitor's requests, latest activity first, a page at a time. */
export function IssuesPage() {
  const { p } = usePortalTexts();
  return <SignedIn fallback={<SignInPrompt text={p('signInToSee')} />}>{() => <IssueList />}</SignedIn>;
}

function IssueList() {
  const { p, t } = usePortalTexts();
  const date = useDate();
  const [params] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const loaded = (useLoaderData() as IssuesData | undefined)?.list ?? null;
  const [list, setList] = useState<PagedList<PortalTicketSummary> | null>(loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // What the loader brought (on the server, or on the way here) is the list; only without it is it asked for.
    if (loaded) return setList(loaded);
    let cancelled = false;
    setList(null);
    call('listMyIssues', { query: { page }, headers: authHeaders() }).then(
      (answer) => !cancelled && setList(answer),
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [page, loaded]);
  return (
    <section className="portal-wide">
      <div className="portal-heading">
        <h1>{p('myRequests')}</h1>
        <Link className="button" to={href.portalNewIssue()}>
          {p('newRequest')}
        </Link>
      </div>
      {failed ? (
        <p role="alert">{t('errorOccurred')}</p>
      ) : !list ? (
        <PageLoading />
      ) : list.items.length === 0 ? (
        <p className="empty-state">{p('noRequests')}</p>
      ) : (
        <>
          <ul className="issue-list">
            {list.items.map((issue) => (
              <li key={issue.id} className="issue-row">
                <Link to={href.portalIssue(issue.id)} className="issue-title">
                  {issue.title}
                </Link>
                <span className="issue-meta">
                  <StatusBadge status={issue.status} />
                  <span>#{issue.id}</span>
                  <span>{p('updated', { date: date(issue.updated_at) })}</span>
                </span>
              </li>
            ))}
          </ul>
          {list._meta.pageCount > 1 && (
            <nav className="pager" aria-label={p('pageOf', { page, pages: list._meta.pageCount })}>
              {page > 1 && <Link to={`${href.portalIssues()}?page=${page - 1}`}>{p('previousPage')}</Link>}
              <span>{p('pageOf', { page, pages: list._meta.pageCount })}</span>
              {page < list._meta.pageCount && (
                <Link to={`${href.portalIssues()}?page=${page + 1}`}>{p('nextPage')}</Link>
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}

function Files({ files }: { files: PortalTicket['files'] }) {
  const { t } = usePortalTexts();
  if (files.length === 0) return null;
  return (
    <ul className="thread-files">
      {files.map((file) => (
        <li key={file.id}>
          <a href={file.link} download={file.original_name}>
            {file.original_name}
          </a>{' '}
          <span className="file-size">{t('fileSize', { size: sizeInKb(file.file_size) })}</span>
        </li>
      ))}
    </ul>
  );
}

/** /issues/{id}: the conversation, opened by the signed-in requester or by the private link's key. */
export function IssuePage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const key = params.get('key') ?? undefined;
  const { p, t } = usePortalTexts();
  const { checked, user } = useAuth();
  const { environments } = usePortalData();
  const loaded = (useLoaderData() as IssueData | undefined)?.ticket ?? null;
  const [ticket, setTicket] = useState<PortalTicket | null>(loaded);
  const [state, setState] = useState<'loading' | 'ready' | 'missing' | 'failed'>(
    loaded ? 'ready' : 'loading',
  );
  const ticketId = Number(id);
  const valid = Number.isInteger(ticketId) && ticketId > 0;

  useEffect(() => {
    if (loaded && loaded.id === ticketId) {
      setTicket(loaded);
      return setState('ready');
    }
    if (!checked) return;
    // Without an account or the private link's key, the browser that sent the request may hold its cookie.
    if (!valid) return setState('missing');
    let cancelled = false;
    call('getMyIssue', { params: { id: ticketId }, query: key ? { key } : {}, headers: authHeaders() }).then(
      (answer) => {
        if (cancelled) return;
        setTicket(answer);
        setState('ready');
      },
      (error: unknown) =>
        !cancelled &&
        setState(
          error instanceof ApiRequestError && [401, 403, 404].includes(error.status) ? 'missing' : 'failed',
        ),
    );
    return () => {
      cancelled = true;
    };
  }, [checked, user, ticketId, valid, key, loaded]);

  // Another request than the one on screen (the address changed): nothing of the last one shows, nor takes a reply.
  if (state === 'loading' || (state === 'ready' && ticket && ticket.id !== ticketId)) return <PageLoading />;
  if (state === 'missing')
    return user || key ? (
      <Panel title={p('myRequests')}>
        <p>{p('requestNotFound')}</p>
        <p className="portal-actions">
          <Link className="button" to={user ? href.portalIssues() : href.home()}>
            {user ? p('toMyRequests') : p('toKnowledge')}
          </Link>
          {key && environments.accounts.mail && (
            // An expired private link: its requester asks for a new one by email.
            <Link className="button button-secondary" to={href.portalRequestLink()}>
              {p('newLinkButton')}
            </Link>
          )}
        </p>
      </Panel>
    ) : (
      <SignInPrompt text={p('signInToSee')} />
    );
  if (state === 'failed' || !ticket) return <p role="alert">{t('errorOccurred')}</p>;
  return <Thread ticket={ticket} onChange={setTicket} linkKey={key} />;
}

function Thread({
  ticket,
  onChange,
  linkKey,
}: {
  ticket: PortalTicket;
  onChange: (ticket: PortalTicket) => void;
  linkKey: string | undefined;
}) {
  const { p } = usePortalTexts();
  const date = useDate();
  const { user } = useAuth();
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const { form, errors, setErrors, setFieldError, busy, send, complete } = usePortalForm();
  const keyPart = linkKey ? { key: linkKey } : {};

  const reply = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete({ body: !body.trim() })) return;
    await send(async () => {
      const uploaded = files.length ? await uploadFiles(files, readAuthToken()) : [];
      onChange(
        await call('replyMyIssue', {
          params: { id: ticket.id },
          body: { body, files: uploaded.map((file) => file.id), ...keyPart },
          headers: authHeaders(),
        }),
      );
      setBody('');
      setFiles([]);
      setErrors({});
    });
  };
  const setStatus = (status: 'solved' | 'open') =>
    send(async () => {
      onChange(
        await call('updateMyIssue', {
          params: { id: ticket.id },
          body: { status, ...keyPart },
          headers: authHeaders(),
        }),
      );
    });
  // A solved request can be opened again; any other can be marked solved.
  const statusChange =
    ticket.status === 'solved'
      ? { status: 'open' as const, label: p('reopen') }
      : { status: 'solved' as const, label: p('markSolved') };

  return (
    <article className="portal-wide thread">
      {user && (
        <p className="thread-back">
          <Link to={href.portalIssues()}>← {p('myRequests')}</Link>
        </p>
      )}
      <div className="portal-heading">
        <h1>{ticket.title}</h1>
        <StatusBadge status={ticket.status} />
      </div>
      <p className="field-hint">
        {p('requestNumber', { id: ticket.id })} · {date(ticket.created_at)}
      </p>
      {linkKey && !user && <p className="banner">{p('keepLink')}</p>}
      <ol className="thread-messages">
        <li className="thread-message from-requester">
          <p className="thread-author">
            {ticket.name || p('you')} <span className="field-hint">{date(ticket.created_at)}</span>
          </p>
          <p className="thread-text">{ticket.description}</p>
          <Files files={ticket.files} />
        </li>
        {ticket.messages.map((message) => (
          <li
            key={message.id}
            className={`thread-message ${message.from_team ? 'from-team' : 'from-requester'}`}
          >
            <p className="thread-author">
              {message.author_name}
              {message.from_team && <span className="team-mark"> · {p('supportTeam')}</span>}{' '}
              <span className="field-hint">{date(message.created_at)}</span>
            </p>
            <HtmlContent className="thread-text rich-text" html={message.body_html} />
            <Files files={message.files} />
          </li>
        ))}
      </ol>
      {ticket.status === 'closed' ? (
        <p className="banner">{p('closedNote')}</p>
      ) : (
        <form
          ref={form}
          className="portal-form"
          method="post"
          noValidate
          onSubmit={(event) => void reply(event)}
        >
          <TextField
            id="reply"
            label={p('replyLabel')}
            multiline
            maxLength={MESSAGE_MAX}
            value={body}
            onChange={(value) => {
              setBody(value);
              setErrors({});
            }}
            error={errors.body}
          />
          <FilePicker
            id="reply-files"
            files={files}
            onChange={setFiles}
            error={errors.files}
            onError={(message) => setFieldError('files', message)}
          />
          <FormError message={errors.form ?? errors.status} />
          <div className="portal-actions">
            <button type="submit" className="button" disabled={busy}>
              {p('sendReply')}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => void setStatus(statusChange.status)}
            >
              {statusChange.label}
            </button>
          </div>
        </form>
      )}
    </article>
  );
}

/** The request's title in the team's inbox: the first line of the message, shortened. */
export function titleOf(message: string): string {
  const line = message.trim().split('\n')[0]!.trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** /issues/create: the portal's own request form (name, surname, message, files; email when not signed in). */
export function NewIssuePage() {
  const { p, t } = usePortalTexts();
  const { environments } = usePortalData();
  const { user, checked } = useAuth();
  const { form, errors, setErrors, setFieldError, busy, failures, send, complete } = usePortalForm();
  const { values, setValues, set } = useFormValues(
    { name: '', surname: '', email: '', message: '' },
    setErrors,
  );
  const [files, setFiles] = useState<File[]>([]);
  const [sent, setSent] = useState<SentRequest | null>(null);
  const sentNote = useRef<HTMLDivElement>(null);
  const captcha = useCaptcha(environments, failures);
  const suggestions = useOpenedSuggestions();
  // The form is gone once sent: focus goes to what replaced it rather than to the page's start, in the same commit.
  useLayoutEffect(() => {
    if (sent) sentNote.current?.focus();
  }, [sent]);
  useEffect(() => {
    if (!user) return;
    const [first = '', ...rest] = user.name.split(' ');
    setValues((current) => ({ ...current, name: first, surname: rest.join(' '), email: user.email }));
  }, [user]);

  if (sent)
    return (
      <Panel title={p('createdTitle')}>
        <div ref={sentNote} className="request-sent-text" role="status" tabIndex={-1}>
          <RequestSentNote sent={sent} signedIn={Boolean(user)} ownPortal mail={environments.accounts.mail} />
        </div>
      </Panel>
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const blank = (field: keyof typeof values) => !values[field].trim();
    if (!complete({ name: blank('name'), message: blank('message'), email: !user && blank('email') })) return;
    await send(async () => {
      const token = readAuthToken();
      const uploaded = files.length ? await uploadFiles(files, token) : [];
      const result = await call('issueOpen', {
        body: {
          title: titleOf(values.message),
          description: `${values.message.trim()}\n\n---\n${PORTAL_REQUEST_NOTE}`,
          channel: 'web',
          name: [values.name.trim(), values.surname.trim()].filter(Boolean).join(' '),
          email: user ? user.email : values.email.trim(),
          files: uploaded.map((file) => file.id),
          g_recaptcha_response: captcha.read(),
        },
        headers: authHeaders(),
      });
      suggestions.onSent();
      setSent({ id: result.data.id, email: user ? user.email : values.email.trim(), link: result.link });
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
