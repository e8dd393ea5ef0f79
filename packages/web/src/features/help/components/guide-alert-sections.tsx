import { DEFAULT_ALARM_SETTINGS, SNOOZE_MINUTES } from '@vitalwatch/shared';
import { AlertRulesList } from './alert-rules-list.tsx';
import { HelpNote, HelpSection } from './help-article.tsx';

const { repeatEveryMinutes, repeatForMinutes, backupAfterMinutes } = DEFAULT_ALARM_SETTINGS.escalation;

/** User guide: what each alert means, why one may come later than the reading, how alerts reach you. */
export function GuideAlertSections() {
  return (
    <>
      <HelpSection id="alerts" title="What each alert means">
        <p>
          A card on the dashboard turns red and says <strong>Abnormal</strong> (or{' '}
          <strong>Low Battery</strong>) the moment a reading is out of its normal range. An{' '}
          <strong>alert</strong> is raised by the server when a condition below holds; it is the same for
          everyone assigned to the device. These are the default rules; the people assigned to a device and
          administrators can tune them per device, within safe limits, at{' '}
          <strong>My Devices → Alarm settings</strong>.
        </p>
        <AlertRulesList />
        <p>
          Each alert has a priority. <strong>High</strong> (falls, SOS and critical values) needs someone now;{' '}
          <strong>medium</strong> (other out-of-range vitals) needs attention soon; <strong>low</strong>{' '}
          (battery, device offline) is for awareness.
        </p>
        <ul>
          <li>
            <strong>Acknowledge</strong> tells everyone assigned to the device that you are on it. Until
            someone does, a high-priority alert stays in a red banner on every page of your dashboard.
          </li>
          <li>
            An unacknowledged high-priority alert is sent again every {repeatEveryMinutes} minutes for{' '}
            {repeatForMinutes} minutes, and after {backupAfterMinutes} minutes also to the device's backup
            contacts.
          </li>
          <li>
            An alert is <strong>resolved</strong> when its vital is back in range, the device is back online,
            or someone marks it handled (falls, SOS and other device events).
          </li>
        </ul>
      </HelpSection>

      <HelpSection id="delays" title="Why an alert may come later than the reading">
        <ul>
          <li>
            <strong>On purpose, for vitals.</strong> A short dip is usually movement or a loose sensor, so
            blood oxygen and heart rate must stay out of range for 30 seconds and temperature for 5 minutes
            before an alert is raised. Critical values, falls and SOS are never held back.
          </li>
          <li>
            <strong>The device was out of reach.</strong> A device that loses its connection may send its
            readings later. Alerts follow the time the reading was taken, so they arrive when the readings do.
          </li>
          <li>
            <strong>Device offline</strong> is raised only after 15 minutes without a reading (the server
            checks every 30 seconds).
          </li>
          <li>
            <strong>Your own settings.</strong> Quiet hours keep low-priority alerts from being pushed or
            e-mailed to you during that time; they wait in Alerts History. A snooze (
            {SNOOZE_MINUTES.join(', ')} minutes) holds one device's alerts of one type for you only. Neither
            ever holds back falls, SOS or a high-priority alert, and neither changes what anyone else
            receives.
          </li>
          <li>
            <strong>Delivery.</strong> Push notifications travel through your browser maker's push service and
            e-mails through mail servers; either can take a little while, and a phone saving battery may hold
            them back. With VitalWatch open, new alerts appear on the page the moment they are raised.
          </li>
        </ul>
        <HelpNote>
          <strong>VitalWatch is not an emergency service.</strong> Nobody at VitalWatch watches your alerts:
          they go only to the people assigned to the device. In an emergency, call your local emergency
          number.
        </HelpNote>
      </HelpSection>

      <HelpSection id="notifications" title="Getting alerts when VitalWatch is closed">
        <ul>
          <li>
            <strong>Push notifications:</strong> on your dashboard choose{' '}
            <strong>Enable alerts on this browser</strong> and allow notifications when the browser asks. Do
            it on each phone or computer you use; <strong>Profile → Connected Browsers</strong> lists them.
          </li>
          <li>
            <strong>E-mail:</strong> turn on <strong>Profile → Alert Emails</strong>. Repeats of
            unacknowledged high-priority alerts are e-mailed even when it is off.
          </li>
          <li>
            <strong>Backup contacts:</strong> if an administrator made you a backup contact for a device, its
            alerts are pushed and e-mailed to you only when a high-priority one is still unacknowledged after{' '}
            {backupAfterMinutes} minutes. You still see all of them in VitalWatch.
          </li>
          <li>
            <strong>Quiet hours</strong> and <strong>Snoozed Alerts</strong> are in your profile too; a snooze
            can be ended there at any time.
          </li>
        </ul>
      </HelpSection>
    </>
  );
}
