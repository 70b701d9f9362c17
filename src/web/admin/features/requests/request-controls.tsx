import { useState } from 'react';
import type { TeamList, TicketView } from '../../../../shared/api/tickets.ts';
import { TICKET_TRANSITIONS, type TicketStatus } from '../../../../shared/constants.ts';
import { adminCall } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { messageOf } from '../../lib/errors.ts';
import { STATUS_NAMES } from '../../lib/requests.ts';

/** Status and assignee, each saved as soon as it is chosen; a change made meanwhile by someone else is reported. */
export function Controls({
  ticket,
  team,
  onChange,
}: {
  ticket: TicketView;
  team: TeamList['items'];
  onChange: (ticket: TicketView) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (body: { status?: TicketStatus; assignee_id?: number | null }) => {
    setBusy(true);
    setProblem(null);
    try {
      onChange(await adminCall('updateAdminTicket', { params: { id: ticket.id }, body }));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const statuses: TicketStatus[] = [ticket.status, ...TICKET_TRANSITIONS[ticket.status]];
  return (
    <div className="request-controls">
      <Field label="Status">
        <select
          value={ticket.status}
          disabled={busy || ticket.status === 'closed'}
          onChange={(e) => void save({ status: e.target.value as TicketStatus })}
        >
          {statuses.map((status) => (
            <option key={status} value={status}>
              {STATUS_NAMES[status]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Assignee">
        <select
          value={ticket.assignee_id ?? ''}
          disabled={busy}
          onChange={(e) => void save({ assignee_id: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">Nobody</option>
          {team.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </select>
      </Field>
      <FormError message={problem} />
    </div>
  );
}
