import { Link } from 'react-router';
import { CONTACT_EMAIL } from '@/lib/contact-details.ts';
import { PATHS } from '@/lib/paths.ts';
import { HelpArticle, HelpNote, HelpSection } from './help-article.tsx';

/** /support: who to ask for what, and how to reach VitalWatch (public). */
export function SupportPage() {
  return (
    <HelpArticle title="Support" lead="Who can help with what, and how to reach us.">
      <HelpNote>
        <strong>In an emergency, call your local emergency number.</strong> Nobody at VitalWatch watches
        alerts or answers them: they go only to the people assigned to the device.
      </HelpNote>

      <HelpSection id="self-help" title="Answers first">
        <p>
          The <Link to={PATHS.guide}>user guide</Link> explains devices, alerts and their timing, sharing and
          your data; the <Link to={PATHS.faq}>FAQ</Link> answers the most common questions.
        </p>
      </HelpSection>

      <HelpSection id="administrator" title="Your account and devices">
        <p>
          The administrator of your VitalWatch (whoever gave you your activation code) can set a new password
          for you, add or assign devices, make you a backup contact, change a device's alarm settings, delete
          your account and tell you how long your data is kept. Ask them first: only they can change these.
        </p>
      </HelpSection>

      <HelpSection id="contact" title="Contact us">
        <p>
          Write to <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>. We answer within one business day.
        </p>
        <p>
          The contact form on the home page does not send anything yet: it only checks what you typed, and
          nothing leaves your browser. Please e-mail us instead.
        </p>
        <p>Tell us, so we can help quickly:</p>
        <ul>
          <li>your username (never your password or a code),</li>
          <li>the device's name, and what you saw and when (a screenshot helps),</li>
          <li>the browser and phone or computer you use.</li>
        </ul>
      </HelpSection>

      <HelpSection id="developers" title="For developers">
        <p>
          Connecting a device or another system? The <a href={PATHS.apiReference}>API reference</a> describes
          every call, how devices send readings over HTTP and MQTT, and the live events.
        </p>
      </HelpSection>
    </HelpArticle>
  );
}
