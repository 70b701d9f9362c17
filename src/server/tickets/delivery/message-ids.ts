/** The Message-IDs of the requests' mails, made from the request's and the message's ids. */

/** The same id on every attempt, so a mail system that saw the first copy can drop a repeat. */
export const messageIdOf = (ticketId: number) => `<ticket-${ticketId}@signpost>`;
/**
 * The requester's receipt of a request, threaded under the request's own id; signed with the request's reply token
 * (tickets/reply-token.ts), so an answer to it finds its way back into the thread.
 */
export const receivedMessageIdOf = (ticketId: number, token: string) =>
  `<ticket-${ticketId}-received.${token}@signpost>`;
/** A message's own id, the same on every attempt, signed like the receipt; mail clients thread it under the request's. */
export const replyMessageIdOf = (ticketId: number, messageId: number, token: string) =>
  `<ticket-${ticketId}-message-${messageId}.${token}@signpost>`;
