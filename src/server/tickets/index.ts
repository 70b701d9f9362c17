/**
 * The requests' domain: the lifecycle (every status move, its refusals and events), the outbox and its channels
 * (delivery by email and webhook, replies by email), the thread, the signed links and tokens, the visitor's and the
 * sender's cookies. The admin, portal and public routes and the rest of the server import this index, never its
 * files (folders.test.ts).
 */
export { deliverDue, type DeliveryWorker, startDeliveryWorker } from './delivery/delivery.service.ts';
export { isValidFileLink, signFileLink, signFilePaths } from './file-links.ts';
export { addMessage, checkMove, emitStatusChange, moveByRequester, refusals } from './lifecycle.ts';
export { mailKeyOf, processMail } from './mail-replies/mail-replies.service.ts';
export { startMailReplyPoller } from './mail-replies/mail-reply-poller.ts';
export { enqueue, inTransaction } from './outbox.ts';
export { replyTokenFor } from './reply-token.ts';
export {
  awaitsOwner,
  opensBySenderCookie,
  provesAddress,
  SENDER_ACCESS_MS,
  senderCookieOf,
  senderCookies,
  senderMayOpen,
} from './sender-access.ts';
export { type FileLinks, filesOfPart, isoOf, presentThreadMessage } from './thread-presenters.ts';
export { messagesOf, threadFiles } from './thread.repository.ts';
export { isTicketLink, saveTicketLink, TICKET_LINK_LIFETIME_MS, ticketLinkKey } from './ticket-links.ts';
export {
  anonymiseTicketsOfUser,
  attachFiles,
  claimTicketsByEmail,
  endSenderAccess,
  findAttachableUploads,
  findStaleUploads,
  findTicket,
  insertTicket,
  type NewTicket,
  untakenUploadBytes,
} from './tickets.repository.ts';
export { ensureVisitorKey, userKey, VISITOR_COOKIE, visitorKey } from './visitor.ts';
