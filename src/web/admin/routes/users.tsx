import { Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router';
import type { AdminUserList } from '../../../shared/api/admin.ts';
import { adminCall } from '../api/admin-api.ts';
import { FormError } from '../components/field.tsx';
import { Modal, ModalActions } from '../components/modal.tsx';
import { Pager } from '../components/pager.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useSession } from '../lib/use-session.ts';
import { AddUserForm, InviteForm, type Group } from '../features/users/user-forms.tsx';
import { UsersTable } from '../features/users/users-table.tsx';
import { useUserList } from '../features/users/use-user-list.ts';

/** The group and page the address asks for: the team unless `?group=customers`, page 1 unless `?page=N`. */
function listQuery(url: URL): { group: Group; page: number } {
  const group: Group = url.searchParams.get('group') === 'customers' ? 'customers' : 'team';
  const page = Number(url.searchParams.get('page'));
  return { group, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

interface UsersData {
  list: AdminUserList;
  /** Whether this server sends mail: invitations need it. */
  mail: boolean;
}

export const usersLoader = async ({ request }: LoaderFunctionArgs): Promise<UsersData> => {
  const [list, environments] = await Promise.all([
    adminCall('listUsers', { query: listQuery(new URL(request.url)) }),
    adminCall('getEnvironments'),
  ]);
  return { list, mail: environments.accounts.mail };
};

const usersHref = (group: Group, page = 1) => {
  const params = new URLSearchParams();
  if (group === 'customers') params.set('group', group);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '.';
};

export function UsersPage() {
  usePageTitle('Users');
  const { user: me } = useSession();
  const { list, mail } = useLoaderData() as UsersData;
  const location = useLocation();
  const { group, page } = listQuery(new URL(location.pathname + location.search, window.location.origin));
  const { users, status, notice, message, deleting, setDeleting, setRole, resend, invited, added, remove } =
    useUserList(list);

  return (
    <div className="users-page">
      <h1 tabIndex={-1}>Users</h1>
      <nav className="tabs" aria-label="Users">
        <Link to={usersHref('team')} aria-current={group === 'team' ? 'page' : undefined}>
          Team
        </Link>
        <Link to={usersHref('customers')} aria-current={group === 'customers' ? 'page' : undefined}>
          Customers
        </Link>
      </nav>
      <FormError message={message} />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {notice && <p className="form-sent">{notice}</p>}
      <UsersTable
        group={group}
        users={users}
        me={me.id}
        mail={mail}
        onRole={(user, role) => void setRole(user, role)}
        onResend={(user) => void resend(user)}
        onDelete={setDeleting}
      />
      {users.length === 0 && (
        <p className="muted">
          {group === 'team' ? 'No one in the team yet.' : 'No customer has an account yet.'}
        </p>
      )}
      <Pager
        page={page}
        pageCount={list._meta.pageCount}
        totalCount={list._meta.totalCount}
        hrefOf={(n) => usersHref(group, n)}
      />
      {group === 'customers' && <InviteForm mail={mail} onInvited={invited} />}
      <AddUserForm key={group} group={group} onAdded={added} />
      {deleting && (
        <Modal title={`Delete ${deleting.name}?`} onClose={() => setDeleting(null)}>
          <p>They are signed out everywhere and can no longer sign in.</p>
          <ModalActions onCancel={() => setDeleting(null)}>
            <button type="button" className="button button-danger" onClick={() => void remove()}>
              Delete
            </button>
          </ModalActions>
        </Modal>
      )}
    </div>
  );
}
