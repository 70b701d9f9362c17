import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import { FilePicker } from '../../components/file-picker.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { portalLinks } from '../../lib/portal-links.ts';
import type { TrailStep } from '../../lib/trail.ts';
import { useRootData } from '../../lib/use-root-data.ts';
import { useAuth } from '../../api/use-auth.tsx';
import { RequestSentNote, type SentRequest } from './request-sent.tsx';
import { useOpenedSuggestions } from './request-suggestions.tsx';
import { MessageField, RequestSubmit, SenderFields } from './request-fields.tsx';
import { useRequestErrors } from './use-request-errors.ts';
import { useRequestSending, type OpenedIssue } from './use-request-sending.ts';
import { useSenderDetails, type RequestField } from './use-sender-details.ts';

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
  const { user } = useAuth();
  const sender = useSenderDetails(user);
  const { values } = sender;
  const [files, setFiles] = useState<File[]>([]);
  const { form, errors, setErrors, setError, complete, refused } = useRequestErrors();
  const { sending, justSent, captcha, send } = useRequestSending(instruction, trail);
  const [sent, setSent] = useState<SentRequest | null>(null);
  const suggestions = useOpenedSuggestions();

  const change = (field: RequestField, value: string) => {
    sender.set(field, value);
    setError(field, undefined);
    setSent(null);
  };

  // Once sent, the form is ready for another request, and the note under it says what happens next.
  const showSent = (issue: OpenedIssue) => {
    sender.clearSent();
    suggestions.onSent();
    setFiles([]);
    setErrors({});
    setSent({ id: issue.data.id, email: values.email.trim(), link: issue.link });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (complete(values)) await send(values, files, { sent: showSent, refused });
  };

  return (
    <>
      <form
        ref={form}
        id={`${formId}-form`}
        className="request-form"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <SenderFields
          formId={formId}
          values={values}
          errors={errors}
          locked={sender.locked}
          prefill={sender.prefill}
          onChange={change}
          onNotYou={() => {
            sender.forgetLinked();
            setErrors((current) => ({ ...current, name: undefined, email: undefined }));
          }}
        />
        <MessageField
          formId={formId}
          values={values}
          errors={errors}
          excludeId={instruction.id}
          onChange={change}
          onOpenSuggestion={suggestions.onOpen}
        />
        <FilePicker
          id={`${formId}-files`}
          files={files}
          onChange={(chosen) => {
            setFiles(chosen);
            setSent(null);
          }}
          error={errors.files}
          onError={(message) => setError('files', message)}
        />
        <RequestSubmit
          formId={formId}
          captcha={captcha}
          errors={errors}
          sending={sending}
          justSent={Boolean(justSent)}
        />
      </form>
      <SentRegion sent={sent} />
    </>
  );
}

/**
 * Under the form, the note on the request just sent, in a live region. The note is where the visitor's eyes and
 * focus go once sent: the button they pressed is disabled. In the commit that shows it (a layout effect), not a frame
 * later.
 */
function SentRegion({ sent }: { sent: SentRequest | null }) {
  const { t } = useI18n();
  const { branding, environments } = useRootData();
  const { user } = useAuth();
  const sentNote = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!sent) return;
    sentNote.current?.focus();
    sentNote.current?.scrollIntoView({ block: 'nearest' });
  }, [sent]);
  return (
    <div className="request-sent-region" role="status">
      {sent && (
        <div ref={sentNote} className="request-sent" tabIndex={-1}>
          <p className="request-sent-title">{t('requestSentToast')}</p>
          <RequestSentNote
            sent={sent}
            signedIn={Boolean(user)}
            requestsHref={user ? portalLinks(branding, environments).tickets : null}
            ownPortal={environments.user_portal === ''}
            mail={environments.accounts.mail}
          />
        </div>
      )}
    </div>
  );
}
