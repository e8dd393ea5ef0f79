import {
  EXPORT_MAX_RANGE_DAYS,
  SHARE_DURATIONS_DAYS,
  SHARE_HISTORY_HOURS,
  SHARE_REPORT_DAYS,
} from '@vitalwatch/shared';
import { HelpSection } from './help-article.tsx';
import { RETENTION_TEXT } from './retention-text.ts';

const durations = `${SHARE_DURATIONS_DAYS.slice(0, -1).join(', ')} or ${SHARE_DURATIONS_DAYS.at(-1)} days`;

/** User guide: share links, exports, and what happens to your data. */
export function GuideDataSections() {
  return (
    <>
      <HelpSection id="sharing" title="Sharing with a doctor or family">
        <p>
          <strong>My Devices → Share</strong> makes a read-only link to one device for someone without an
          account, valid for {durations}. It shows the device's newest reading, the number and averages of the
          last {SHARE_HISTORY_HOURS} hours' readings and a PDF report of the last {SHARE_REPORT_DAYS} days;
          nothing else, and no alerts.
        </p>
        <ul>
          <li>
            The link is shown once: copy it then. Anyone who has it can open it, so send it only to the person
            it is for.
          </li>
          <li>
            <strong>Revoke</strong> ends it at once. It also stops working while you are no longer assigned to
            the device. Administrators can see and revoke every link.
          </li>
          <li>
            Making and revoking links, and every report downloaded through one, are recorded in the audit log.
          </li>
        </ul>
      </HelpSection>

      <HelpSection id="exports" title="Reports and exports">
        <p>
          <strong>Health Trends → Export</strong> on the dashboard downloads the period on screen (up to its
          last {EXPORT_MAX_RANGE_DAYS} days): a PDF report to print or give a doctor (lowest, average and
          highest values, time in the normal range, a chart and a table per day, and the alerts), the readings
          as CSV for a spreadsheet, or the alerts as CSV. Every export is recorded in the audit log.
        </p>
      </HelpSection>

      <HelpSection id="privacy" title="Privacy and your data">
        <ul>
          <li>
            <strong>Who sees a device's readings and alerts:</strong> the people assigned to it (those who
            added it with its activation code, or whom an administrator assigned) and the administrators of
            your VitalWatch. Someone with a share link sees only what the link shows.
          </li>
          <li>
            <strong>How long it is kept:</strong> each reading is kept for {RETENTION_TEXT.raw} and per-minute
            and per-hour summaries of them for {RETENTION_TEXT.rollups}, unless whoever runs your VitalWatch
            server set other periods. The audit log of sign-ins, changes and exports is kept for{' '}
            {RETENTION_TEXT.audit}.
          </li>
          <li>
            <strong>Deleting:</strong> when a device is deleted, its readings and alerts go with it. Ask an
            administrator to delete your account; your sessions, push subscriptions and device assignments go
            with it.
          </li>
          <li>
            <strong>On this browser:</strong> health data is never kept in the browser's cache, and signing
            out clears what VitalWatch stored in it.
          </li>
        </ul>
      </HelpSection>

      <HelpSection id="security" title="Keeping your account safe">
        <ul>
          <li>
            <strong>Two-factor sign-in:</strong> at <strong>Profile Settings → Two-Factor Sign-In</strong>{' '}
            connect an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…).
            From then on you sign in with your password and a code from the app. Keep the ten recovery codes
            it shows you somewhere safe: each works once in place of a code if you lose your phone.
          </li>
          <li>Changing your password signs you out everywhere else.</li>
          <li>
            After ten wrong passwords or codes within 15 minutes the account is locked for the rest of those
            15 minutes.
          </li>
          <li>
            Forgot your password? There is no reset by e-mail: an administrator of your VitalWatch can set a
            new one for you.
          </li>
        </ul>
      </HelpSection>
    </>
  );
}
