import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersPage } from '@/features/admin/components/users-page.tsx';
import { adminUser, callsTo, ok, onePage, queriesTo, routeFetch, usersPage } from './admin-fixtures.ts';
import { jsonResponse, renderWithApp } from './render.tsx';

const ada = adminUser();
const root = adminUser({
  _id: 'u0',
  fullName: 'Root Admin',
  username: 'root',
  email: 'root@example.com',
  role: 'admin',
  fcmTokens: ['tok-1', 'tok-2'],
});

beforeEach(() => localStorage.setItem('access-token', 'T'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const listed = (users = [root, ada]) => ({ '/admin/users': usersPage(users) });

async function openAdd() {
  const user = userEvent.setup();
  await screen.findByText('2 users found');
  await user.click(screen.getAllByRole('button', { name: 'Add User' })[0] as HTMLElement);
  return { user, dialog: screen.getByRole('dialog', { name: 'Add New User' }) };
}

describe('user management', () => {
  it('shows five skeleton rows while loading, then the table', async () => {
    let release: (r: Response) => void = () => {};
    const fetch = routeFetch({ '/admin/users': () => new Promise<Response>((r) => (release = r)) });
    renderWithApp(<UsersPage />, '/admin-dashboard/users');
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.getByRole('heading', { name: 'User Management' })).toBeInTheDocument();
    expect(screen.getByText('Manage all system users and their permissions')).toBeInTheDocument();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    release(onePage('users', [root, ada]));
    const row = (await screen.findByText('Ada Lovelace')).closest('tr') as HTMLElement;
    expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0);
    expect(within(row).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(row).getByText('User')).toHaveClass('bg-blue-100');
    expect(within(row).getByText('0 connected')).toBeInTheDocument();
    const rootRow = screen.getByText('Root Admin').closest('tr') as HTMLElement;
    expect(within(rootRow).getByText('Admin')).toHaveClass('bg-purple-100');
    expect(within(rootRow).getByText('2 connected')).toBeInTheDocument();
    for (const name of ['View Details', 'Edit User', 'Reset Password', 'Delete User']) {
      expect(within(row).getByRole('button', { name })).toHaveAttribute('title', name);
    }
  });

  it('filters by the search box, counts what it finds and offers Add User when nothing matches', async () => {
    routeFetch(listed());
    renderWithApp(<UsersPage />);
    const user = userEvent.setup();
    expect(await screen.findByText('2 users found')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search users by name, email or role...'), 'admin');
    expect(await screen.findByText('1 users found')).toBeInTheDocument();
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zzz');
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search query')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add User' })).toHaveLength(2);
  });

  it('invites to add the first user when there is none', async () => {
    routeFetch(listed([]));
    renderWithApp(<UsersPage />);
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.getByText('Get started by adding a new user')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add User' })).toHaveLength(2);
  });

  it('says why the list failed and retries', async () => {
    const fetch = routeFetch({
      '/admin/users': () => jsonResponse(500, { success: false, message: 'Database down', code: 'INTERNAL' }),
    });
    renderWithApp(<UsersPage />);
    expect(await screen.findByText('Failed to fetch users')).toBeInTheDocument();
    expect(screen.getByText('Database down')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(queriesTo(fetch, '/admin/users')).toHaveLength(2));
  });

  it('enables Add User only when every field is filled and alerts on a mismatch without calling', async () => {
    const fetch = routeFetch(listed());
    renderWithApp(<UsersPage />);
    const { user, dialog } = await openAdd();
    const submit = within(dialog).getByRole('button', { name: 'Add User' });
    expect(within(dialog).getByLabelText('Role')).toHaveValue('user');
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Full Name'), 'Grace Hopper');
    await user.type(within(dialog).getByLabelText('Username'), 'grace');
    await user.type(within(dialog).getByLabelText('Email'), 'grace@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'Passw0rdOK');
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Confirm Password'), 'Passw0rdKO');
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(within(dialog).getByRole('alert')).toHaveTextContent("Passwords don't match");
    expect(callsTo(fetch, '/admin/add-user')).toHaveLength(0);
  });

  it('adds a user: one call, modal closed, row appended, toast', async () => {
    const grace = adminUser({
      _id: 'u9',
      fullName: 'Grace Hopper',
      username: 'grace',
      email: 'g@example.com',
    });
    const fetch = routeFetch({ ...listed(), '/admin/add-user': () => ok({ user: grace }) });
    renderWithApp(<UsersPage />);
    const { user, dialog } = await openAdd();
    await user.type(within(dialog).getByLabelText('Full Name'), 'Grace Hopper');
    await user.type(within(dialog).getByLabelText('Username'), 'grace');
    await user.type(within(dialog).getByLabelText('Email'), 'g@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.type(within(dialog).getByLabelText('Password'), 'Passw0rdOK');
    await user.type(within(dialog).getByLabelText('Confirm Password'), 'Passw0rdOK');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('User added successfully')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/add-user')).toEqual([
      {
        fullName: 'Grace Hopper',
        username: 'grace',
        email: 'g@example.com',
        role: 'admin',
        password: 'Passw0rdOK',
      },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('3 users found')).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
  });

  it('closes and clears the add form after a failure, showing the server message', async () => {
    routeFetch({
      ...listed(),
      '/admin/add-user': () =>
        jsonResponse(409, { success: false, message: 'Username is already taken', code: 'CONFLICT' }),
    });
    renderWithApp(<UsersPage />);
    const { user, dialog } = await openAdd();
    await user.type(within(dialog).getByLabelText('Full Name'), 'Dup');
    await user.type(within(dialog).getByLabelText('Username'), 'ada');
    await user.type(within(dialog).getByLabelText('Email'), 'dup@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'Passw0rdOK');
    await user.type(within(dialog).getByLabelText('Confirm Password'), 'Passw0rdOK');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('Username is already taken')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Add User' })[0] as HTMLElement);
    expect(screen.getByLabelText('Full Name')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('edits prefilled, disables Update User while a field is empty, replaces the row', async () => {
    const fetch = routeFetch({
      ...listed(),
      '/admin/edit-user/u1': () => ok({ user: { ...ada, fullName: 'Augusta Ada King' } }),
    });
    renderWithApp(<UsersPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Ada Lovelace')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Edit User' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    const name = within(dialog).getByLabelText('Full Name');
    expect(name).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ada@example.com');
    await user.clear(name);
    expect(within(dialog).getByRole('button', { name: 'Update User' })).toBeDisabled();
    await user.type(name, 'Augusta Ada King');
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/edit-user/u1')).toEqual([
      { fullName: 'Augusta Ada King', username: 'ada', email: 'ada@example.com', role: 'user' },
    ]);
    expect(screen.getByText('Augusta Ada King')).toBeInTheDocument();
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
  });

  it('resets a password: names the user, needs both fields, alerts on a mismatch', async () => {
    const fetch = routeFetch({ ...listed(), '/admin/reset-password/u1': () => ok() });
    renderWithApp(<UsersPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Ada Lovelace')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Reset Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    expect(dialog).toHaveAccessibleDescription('Resetting password for Ada Lovelace (ada@example.com)');
    const submit = within(dialog).getByRole('button', { name: 'Reset Password' });
    await user.type(within(dialog).getByLabelText('New Password'), 'NewPassw0rd');
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Confirm Password'), 'Other');
    await user.click(submit);
    expect(within(dialog).getByRole('alert')).toHaveTextContent("Passwords don't match");
    expect(callsTo(fetch, '/admin/reset-password/u1')).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Confirm Password'));
    await user.type(within(dialog).getByLabelText('Confirm Password'), 'NewPassw0rd');
    await user.click(submit);
    expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
    expect(callsTo(fetch, '/admin/reset-password/u1')).toEqual([{ newPassword: 'NewPassw0rd' }]);
  });

  it('asks before deleting and removes the row', async () => {
    routeFetch({ ...listed(), '/admin/delete-user/u1': () => ok() });
    renderWithApp(<UsersPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Ada Lovelace')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Delete User' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAccessibleDescription('Are you sure you want to delete this user?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
    expect(screen.getByText('1 users found')).toBeInTheDocument();
  });

  it('shows the details with token ids to copy, and Escape closes them', async () => {
    routeFetch(listed());
    renderWithApp(<UsersPage />);
    const user = userEvent.setup();
    const row = (await screen.findByText('Root Admin')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'View Details' }));
    const dialog = screen.getByRole('dialog', { name: 'User Details' });
    expect(within(dialog).getByText('root@example.com')).toBeInTheDocument();
    expect(within(dialog).getByText('Created').nextSibling).toHaveTextContent(
      /^[A-Z][a-z]{2} \d{1,2}, 2026, \d\d:\d\d [AP]M$/,
    );
    const tokens = within(dialog).getByRole('list', { name: 'Token ids' });
    expect(within(tokens).getAllByRole('listitem')).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Copy token tok-2' }));
    // user-event puts its own clipboard in place of the browser's.
    expect(await navigator.clipboard.readText()).toBe('tok-2');
    expect(await screen.findByText('Token copied!')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
