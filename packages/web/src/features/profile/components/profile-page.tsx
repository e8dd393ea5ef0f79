import { UserIcon } from '@/components/icons.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState } from '@/components/status-panels.tsx';
import { selectCurrentUser } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { AlertEmailsSection } from './alert-emails-section.tsx';
import { AlertSoundSection } from './alert-sound-section.tsx';
import { CloseAccountSection } from './close-account-section.tsx';
import { ConnectedBrowsersSection } from './connected-browsers-section.tsx';
import { PersonalInfoSection } from './personal-info-section.tsx';
import { QuietHoursSection } from './quiet-hours-section.tsx';
import { SecuritySection } from './security-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { SmsSection } from './sms-section.tsx';
import { SnoozesSection } from './snoozes-section.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';
import { UnitsSection } from './units-section.tsx';
import { WebhooksSection } from './webhooks-section.tsx';
import { YourDataSection } from './your-data-section.tsx';

/** Profile settings (/dashboard/profile). */
export function ProfilePage() {
  const user = useAppSelector(selectCurrentUser);
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6 lg:px-8">
      <title>Profile Settings · VitalWatch</title>
      {user ? (
        <>
          <PageHeader title="Profile Settings" subtitle="Manage your personal information and password" />
          <div className="space-y-6">
            <PersonalInfoSection user={user} />
            <SecuritySection />
            <TwoFactorSection user={user} />
            <UnitsSection user={user} />
            <AlertEmailsSection user={user} />
            <AlertSoundSection />
            <QuietHoursSection user={user} />
            <SnoozesSection />
            <ConnectedBrowsersSection />
            <SmsSection />
            <WebhooksSection />
            <SessionsSection />
            <YourDataSection user={user} />
            <CloseAccountSection user={user} />
          </div>
        </>
      ) : (
        <EmptyState
          icon={<UserIcon className="size-10" />}
          title="User Not Found"
          hint="Please log in to view your profile."
        />
      )}
    </div>
  );
}
