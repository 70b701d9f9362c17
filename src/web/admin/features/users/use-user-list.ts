import { useEffect, useState } from 'react';
import type { AdminUser, AdminUserList } from '../../../../shared/api/admin.ts';
import type { UserRole } from '../../../../shared/constants.ts';
import { adminCall } from '../../api/admin-api.ts';
import { messageOf } from '../../lib/errors.ts';
import { inviteMessage, ROLE_PHRASES } from './user-texts.ts';

/**
 * The users listed, and what the page does to them: change a role (shown at once, put back on a refusal), invite
 * again, add, delete after a confirmation. Each outcome is spoken (`status`) or shown (`notice`, `message`).
 */
export function useUserList(list: AdminUserList) {
  const [users, setUsers] = useState(list.items);
  useEffect(() => setUsers(list.items), [list]);
  const [status, setStatus] = useState('');
  /** What a resent invitation says where it can be seen (the status above is for screen readers). */
  const [notice, setNotice] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const replace = (user: AdminUser) => setUsers((list) => list.map((u) => (u.id === user.id ? user : u)));

  const setRole = async (user: AdminUser, role: UserRole) => {
    setMessage(null);
    // The choice shows at once; a refusal puts it back.
    replace({ ...user, role });
    try {
      replace(await adminCall('updateUser', { params: { id: user.id }, body: { role } }));
      setStatus(`${user.name} is ${ROLE_PHRASES[role]} now.`);
    } catch (error) {
      replace(user);
      setMessage(messageOf(error));
    }
  };

  const resend = async (user: AdminUser) => {
    setMessage(null);
    setNotice(null);
    try {
      replace(await adminCall('inviteCustomer', { body: { email: user.email, name: user.name } }));
      setStatus(`A new invitation is on its way to ${user.email}.`);
      setNotice(`A new invitation is on its way to ${user.email}.`);
    } catch (error) {
      setMessage(inviteMessage(error));
    }
  };

  /** A new invitee joins the list; one invited again keeps their place. */
  const invited = (user: AdminUser) =>
    setUsers((list) =>
      list.some((u) => u.id === user.id) ? list.map((u) => (u.id === user.id ? user : u)) : [...list, user],
    );

  const added = (user: AdminUser) => {
    setUsers((list) => [...list, user]);
    setStatus(`Added ${user.name}.`);
  };

  const remove = async () => {
    if (!deleting) return;
    const user = deleting;
    setDeleting(null);
    try {
      await adminCall('deleteUser', { params: { id: user.id } });
      setUsers((list) => list.filter((u) => u.id !== user.id));
      setStatus(`Deleted ${user.name}.`);
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  return { users, status, notice, message, deleting, setDeleting, setRole, resend, invited, added, remove };
}
