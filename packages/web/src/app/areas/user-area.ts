/** The signed-in user's screens: one chunk (Chart.js is fetched with the charts that draw it). */

export { DevicesPage } from '@/features/devices/components/devices-page.tsx';
export { ProfilePage } from '@/features/profile/components/profile-page.tsx';
export { WearablePage } from '@/features/wearables/components/wearable-page.tsx';
export { AlertsPage } from '../user-area/alerts-page.tsx';
export { BoardPage } from '../user-area/board-page.tsx';
export { OverviewPage } from '../user-area/overview-page.tsx';
export { UserAreaLayout } from '../user-area/user-area-layout.tsx';
