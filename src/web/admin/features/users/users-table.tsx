import type { AdminUser } from '../../../../shared/api/admin.ts';
import type { UserRole } from '../../../../shared/constants.ts';
import { TableHead } from '../../components/table-head.tsx';
import { RoleSelect, type Group } from './user-forms.tsx';
import { NO_MAIL } from './user-texts.ts';

interface RowActions {
  onRole: (user: AdminUser, role: UserRole) => void;
  onResend: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
}

/** "Resend" for an invitee, "Delete" for anyone but oneself. */
function RowButtons({
  user,
  me,
  mail,
  onResend,
  onDelete,
}: { user: AdminUser; me: number; mail: boolean } & RowActions) {
  return (
    <td className="row-actions">
      {user.invited && (
        <button
          type="button"
          className="tool"
          aria-label={`Send ${user.name} a new invitation`}
          title={mail ? 'Send a new invitation link' : NO_MAIL}
          disabled={!mail}
          onClick={() => onResend(user)}
        >
          Resend
        </button>
      )}
      {user.id !== me && (
        <button
          type="button"
          className="tool tool-danger"
          aria-label={`Delete ${user.name}`}
          onClick={() => onDelete(user)}
        >
          Delete
        </button>
      )}
    </td>
  );
}

function UserRow({
  user,
  me,
  mail,
  ...actions
}: { user: AdminUser; me: number; mail: boolean } & RowActions) {
  return (
    <tr>
      <td className="stack-title">
        {user.name}
        {user.id === me && <span className="muted"> (you)</span>}
      </td>
      <td data-label="Email">{user.email}</td>
      <td data-label="Role">
        <RoleSelect
          label={`Role of ${user.name}`}
          value={user.role}
          disabled={user.id === me}
          onChange={(role) => actions.onRole(user, role)}
        />
      </td>
      <td data-label="Email verified">
        {user.invited ? (
          <span className="badge badge-invited">Invited</span>
        ) : user.email_verified ? (
          'Yes'
        ) : (
          'Not yet'
        )}
      </td>
      <td data-label="Added">
        {new Date(user.created_at).toLocaleDateString('en-GB', { dateStyle: 'medium' })}
      </td>
      <RowButtons user={user} me={me} mail={mail} {...actions} />
    </tr>
  );
}

/** The users of one group, each with their role to change and what can be done to them; `me` is the viewer's id. */
export function UsersTable({
  group,
  users,
  me,
  mail,
  ...actions
}: { group: Group; users: AdminUser[]; me: number; mail: boolean } & RowActions) {
  return (
    <div className="table-scroll">
      <table className="data-table data-table-stack">
        <caption className="visually-hidden">{group === 'team' ? 'The team' : 'Customers'}</caption>
        <TableHead columns={['Name', 'Email', 'Role', 'Email verified', 'Added']} actions />
        <tbody>
          {users.map((user) => (
            <UserRow key={user.id} user={user} me={me} mail={mail} {...actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
