import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '@/lib/paths.ts';
import { HelpArticle, HelpSection } from './help-article.tsx';
import { RETENTION_TEXT } from './retention-text.ts';

const guide = (hash: string, text: string) => <Link to={{ pathname: PATHS.guide, hash }}>{text}</Link>;

const QUESTIONS: { id: string; question: string; answer: ReactNode }[] = [
  {
    id: 'emergency',
    question: 'Does anyone at VitalWatch watch the alerts?',
    answer: (
      <p>
        No. Alerts go only to the people assigned to the device. VitalWatch is not an emergency service: in an
        emergency, call your local emergency number.
      </p>
    ),
  },
  {
    id: 'red-no-alert',
    question: 'A card turned red but no alert came. Why?',
    answer: (
      <p>
        A card turns red the moment one reading is out of range; an alert needs the value to stay out of range
        for a while (30 seconds for blood oxygen and heart rate, 5 minutes for temperature), because a single
        odd reading is usually movement or a loose sensor. Critical values, falls and SOS raise an alert at
        once. See {guide('#alerts', 'what each alert means')}.
      </p>
    ),
  },
  {
    id: 'late-alert',
    question: 'Why did an alert arrive later than the reading?',
    answer: (
      <p>
        The device may have been out of reach and sent its readings later, your quiet hours may hold
        low-priority alerts, or a push or e-mail took a while on its way. See{' '}
        {guide('#delays', 'why an alert may come later')}.
      </p>
    ),
  },
  {
    id: 'offline',
    question: 'Why does my device say "Device Offline"?',
    answer: (
      <p>
        It has sent no reading for more than 15 minutes, or none at all yet. Check that it is charged, worn
        and within reach of its connection. It shows as connected again with its next reading.
      </p>
    ),
  },
  {
    id: 'no-push',
    question: 'I do not get notifications on my phone or computer.',
    answer: (
      <p>
        Choose <strong>Enable alerts on this browser</strong> on your dashboard on each browser you use and
        allow notifications when asked; if you once refused, allow them again in the browser's site settings.{' '}
        <strong>Profile → Connected Browsers</strong> lists the browsers that get them. Quiet hours and
        snoozes hold some alerts for you, and backup contacts get only unacknowledged high-priority ones.
      </p>
    ),
  },
  {
    id: 'who-sees',
    question: "Who can see my device's readings?",
    answer: (
      <p>
        The people assigned to the device and the administrators of your VitalWatch, and, for as long as the
        link lives, anyone you give a share link to. See {guide('#privacy', 'privacy and your data')}.
      </p>
    ),
  },
  {
    id: 'doctor',
    question: 'How do I show the readings to a doctor?',
    answer: (
      <p>
        Download a PDF report with <strong>Health Trends → Export</strong>, or make a read-only link with{' '}
        <strong>My Devices → Share</strong>. See {guide('#sharing', 'sharing')}.
      </p>
    ),
  },
  {
    id: 'celsius',
    question: 'Can I see temperatures in °C?',
    answer: (
      <p>
        Yes: <strong>Profile → Units</strong>. It changes only what you see.
      </p>
    ),
  },
  {
    id: 'password',
    question: 'I forgot my password, or my account is locked.',
    answer: (
      <p>
        An administrator of your VitalWatch can set a new password for you; there is no reset by e-mail. After
        ten wrong passwords or codes the account is locked for 15 minutes, then you can try again.
      </p>
    ),
  },
  {
    id: 'retention',
    question: 'How long are readings kept?',
    answer: (
      <p>
        Each reading for {RETENTION_TEXT.raw} and per-minute and per-hour summaries for{' '}
        {RETENTION_TEXT.rollups}, unless whoever runs your VitalWatch server set other periods. Deleting a
        device deletes its readings and alerts.
      </p>
    ),
  },
];

/** /faq: short answers to what carers ask most (public). */
export function FaqPage() {
  return (
    <HelpArticle
      title="Frequently Asked Questions"
      lead={
        <>
          Short answers to common questions. The{' '}
          <Link
            className="font-medium text-teal-700 underline underline-offset-2 dark:text-teal-400"
            to={PATHS.guide}
          >
            user guide
          </Link>{' '}
          explains everything in full.
        </>
      }
    >
      {QUESTIONS.map((q) => (
        <HelpSection key={q.id} id={q.id} title={q.question}>
          {q.answer}
        </HelpSection>
      ))}
    </HelpArticle>
  );
}
