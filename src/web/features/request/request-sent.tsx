import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';
import { useI18n } from '../../i18n/i18n.tsx';

export interface SentRequest {
  id: number;
  email: string;
  /** The request's page in this server's portal for a signed-in sender; null without an account, or elsewhere. */
  link: string | null;
}

/**
 * What happens after a request is sent: the answer comes by email, and where to follow it: its own page when this
 * server is the portal, else the portal's list of requests (`requestsHref`) when there is one. A visitor without an
 * account reads that the private link is mailed to the address given (the answer has none: anyone can type an
 * address), and this browser opens the request's page by its cookie meanwhile (`ownPortal`). Without mail (no
 * SMTP_URL) nothing is mailed, neither the answers nor the link: the note says so, and that the answers are on the
 * request's page, which this browser opens by its cookie, and the portal for an account with the address.
 */
export function RequestSentNote({
  sent,
  signedIn,
  requestsHref = null,
  ownPortal = false,
  mail,
}: {
  sent: SentRequest;
  signedIn: boolean;
  requestsHref?: string | null;
  ownPortal?: boolean;
  /** Whether this server sends mail (SMTP_URL): the environments' `accounts.mail`. */
  mail: boolean;
}) {
  const { t } = useI18n();
  if (!mail)
    return <NoMailNote sent={sent} signedIn={signedIn} requestsHref={requestsHref} ownPortal={ownPortal} />;
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
      ) : ownPortal && !signedIn ? (
        <>
          <p>{t('requestLinkMailed', { email: sent.email })}</p>
          <p>
            {/* A page load, not a route change: the page's call carries the request's cookie, set by its path. */}
            <a className="button" href={href.portalIssue(sent.id)}>
              {t('followRequest')}
            </a>
          </p>
          <p className="field-hint">{t('requestOpensInBrowser')}</p>
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

/** After a send on a server without mail: where the answers will be, since no email will say it. */
function NoMailNote({
  sent,
  signedIn,
  requestsHref,
  ownPortal,
}: {
  sent: SentRequest;
  signedIn: boolean;
  requestsHref: string | null;
  ownPortal: boolean;
}) {
  const { t } = useI18n();
  const here = sent.link ?? (ownPortal && !signedIn ? href.portalIssue(sent.id) : null);
  return (
    <>
      <p>{t('requestNoMail')}</p>
      {here ? (
        <>
          <p>
            {sent.link ? t('requestAnswersInPortal') : t('requestAnswersInBrowser', { email: sent.email })}
          </p>
          <p>
            {/* A page load, not a route change: the page's call carries the request's cookie, set by its path. */}
            <a className="button" href={here}>
              {t('followRequest')}
            </a>
          </p>
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
