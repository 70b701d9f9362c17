import { Link } from 'react-router';
import { useI18n } from '../../i18n/i18n.tsx';

export interface SentRequest {
  email: string;
  /** The request's page in this server's portal (with its private key when sent without an account), or null. */
  link: string | null;
}

/**
 * What happens after a request is sent: the answer comes by email, and where to follow it: its own page when this
 * server is the portal, else the portal's list of requests (`requestsHref`) when there is one. A visitor without an
 * account is shown the private link to keep.
 */
export function RequestSentNote({
  sent,
  signedIn,
  requestsHref = null,
}: {
  sent: SentRequest;
  signedIn: boolean;
  requestsHref?: string | null;
}) {
  const { t } = useI18n();
  return (
    <>
      <p>{t('requestReplyByEmail', { email: sent.email })}</p>
      {sent.link ? (
        <>
          <p>
            <Link className="button" to={sent.link}>
              {t('followRequest')}
            </Link>
          </p>
          {!signedIn && (
            <>
              <p className="field-hint">{t('keepRequestLink')}</p>
              <p className="private-link">{`${window.location.origin}${sent.link}`}</p>
            </>
          )}
        </>
      ) : (
        requestsHref && (
          <p>
            <a href={requestsHref}>{t('seeYourRequests')}</a>
          </p>
        )
      )}
    </>
  );
}
