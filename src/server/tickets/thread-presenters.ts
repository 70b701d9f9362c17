import type { PortalMessage } from '../../shared/api/portal.ts';
import type { FileRow, TicketMessageRow } from '../db/tables.ts';

export const isoOf = (millis: number) => new Date(Number(millis)).toISOString();

/** Signed download paths of a request's files, by file id. */
export type FileLinks = Map<number, string>;

/** A request's files as its thread shows them: the request's own (`null`) or one message's, each with its link. */
export function filesOfPart(
  files: (FileRow & { message_id: number | null })[],
  messageId: number | null,
  links: FileLinks,
) {
  return files
    .filter((file) => file.message_id === messageId)
    .map((file) => ({
      id: file.id,
      original_name: file.original_name,
      file_size: Number(file.size),
      link: links.get(file.id) ?? '',
    }));
}

/** A message as both sides read it; the team's view adds whether it is an internal note. */
export function presentThreadMessage(
  message: TicketMessageRow,
  files: (FileRow & { message_id: number | null })[],
  links: FileLinks,
): PortalMessage {
  return {
    id: message.id,
    author_name: message.author_name,
    from_team: message.from_team === 1,
    body_text: message.body_text,
    body_html: message.body_html,
    created_at: isoOf(message.created_at),
    files: filesOfPart(files, message.id, links),
  };
}
