/** The admin's screens: one chunk. */
export { AdminDevicesPage } from '@/features/admin/components/admin-devices-page.tsx';
export { AdminOverviewPage } from '@/features/admin/components/admin-overview-page.tsx';
export { AuditLogPage } from '@/features/admin/components/audit-log-page.tsx';
export { ShareLinksPage } from '@/features/admin/components/share-links-page.tsx';
export { TeamsPage } from '@/features/admin/components/teams/teams-page.tsx';
export { UsersPage } from '@/features/admin/components/users-page.tsx';
