import { NORMAL_RANGES } from '@vitalwatch/shared';
import { Link } from 'react-router';
import { PATHS } from '@/lib/paths.ts';
import { GuideAlertSections } from './guide-alert-sections.tsx';
import { GuideDataSections } from './guide-data-sections.tsx';
import { HelpArticle, HelpSection } from './help-article.tsx';

const CONTENTS = [
  ['start', 'Getting started'],
  ['devices', 'Connecting a device'],
  ['dashboard', 'Reading the dashboard'],
  ['alerts', 'What each alert means'],
  ['delays', 'Why an alert may come later'],
  ['notifications', 'Alerts when VitalWatch is closed'],
  ['sharing', 'Sharing with a doctor or family'],
  ['exports', 'Reports and exports'],
  ['privacy', 'Privacy and your data'],
  ['security', 'Keeping your account safe'],
] as const;

const { spo2, heartRate, temperature, battery } = NORMAL_RANGES;

/** /guide: how to use VitalWatch, for the people who watch over someone (public). */
export function UserGuidePage() {
  return (
    <HelpArticle
      title="User Guide"
      lead="How to connect a wearable, read what VitalWatch shows, and understand the alerts it sends and when."
    >
      <nav
        aria-labelledby="contents-title"
        className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="contents-title" className="font-semibold text-slate-900 dark:text-white">
          On this page
        </h2>
        <ol className="mt-3 grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
          {CONTENTS.map(([id, label]) => (
            <li key={id}>
              <a
                href={`#${id}`}
                className="text-teal-700 underline-offset-2 hover:underline dark:text-teal-400"
              >
                {label}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <HelpSection id="start" title="Getting started">
        <ul>
          <li>
            <Link to={PATHS.signup}>Sign up</Link> with your name, a username, your e-mail and a password of
            at least 8 characters with a number, an upper-case and a lower-case letter. Then{' '}
            <Link to={PATHS.signin}>sign in</Link> with your username or e-mail.
          </li>
          <li>
            Your dashboard has four parts: <strong>Dashboard</strong> (the newest readings, trends and recent
            alerts of one device), <strong>Devices</strong>, <strong>Alerts</strong> (the full history) and,
            in the menu under your name, <strong>Profile</strong>.
          </li>
          <li>The sun and moon button in the header switches between the light and the dark theme.</li>
        </ul>
      </HelpSection>

      <HelpSection id="devices" title="Connecting a device">
        <ol className="list-decimal space-y-1.5 pl-5">
          <li>
            An administrator of your VitalWatch registers the wearable and gives you its{' '}
            <strong>activation code</strong>. The device itself is set up with a separate code, so it sends
            its readings on its own.
          </li>
          <li>
            Open <strong>My Devices → Add Device</strong>, type the activation code and a name you will
            recognise (for example "Mum's watch"). Several people can add the same device; all of them see the
            same readings and get the same alerts.
          </li>
          <li>
            The device shows as <strong>Device Connected</strong> once a reading has arrived in the last 15
            minutes. Until its first reading it shows <strong>Device Offline</strong> with "No readings
            received from this device yet".
          </li>
        </ol>
        <p>
          You can rename a device with <strong>Edit name</strong>. After ten wrong activation codes within 15
          minutes, adding devices is paused for the rest of those 15 minutes. A device an administrator has
          disabled cannot send readings.
        </p>
      </HelpSection>

      <HelpSection id="dashboard" title="Reading the dashboard">
        <p>Each card shows the newest reading. Normal ranges:</p>
        <ul>
          <li>Blood oxygen (SpO2): {spo2.min} % or more</li>
          <li>
            Heart rate: {heartRate.min} to {heartRate.max} beats a minute
          </li>
          <li>
            Body temperature: {temperature.min} to {temperature.max} °F (choose °C at{' '}
            <strong>Profile → Units</strong>)
          </li>
          <li>Battery: {battery.min} % or more</li>
        </ul>
        <p>
          Outside its range a card's bar turns red at once; the green bracket under each bar marks its normal
          range, and a vital the device did not send says <strong>No reading</strong>. When the newest reading
          is more than 15 minutes old, the cards say <strong>Stale</strong> with what that old value meant
          ("Stale · was Abnormal"): it says nothing about now. <strong>Health Trends</strong> draws the last
          hour, day, week, month or a period you choose; gaps are times the device sent nothing.
        </p>
      </HelpSection>

      <GuideAlertSections />
      <GuideDataSections />
    </HelpArticle>
  );
}
