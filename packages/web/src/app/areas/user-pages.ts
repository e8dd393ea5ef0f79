/** The signed-in user's screens besides the overview (user-area.ts): one chunk. */

export { DevicesPage } from '@/features/devices/components/devices-page.tsx';
export { ProfilePage } from '@/features/profile/components/profile-page.tsx';
export { WearablePage } from '@/features/wearables/components/wearable-page.tsx';
export { AlertsPage } from '../user-area/alerts-page.tsx';
export { BoardPage } from '../user-area/board-page.tsx';
