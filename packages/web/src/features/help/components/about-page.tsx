import { Link } from 'react-router';
import { PATHS } from '@/lib/paths.ts';
import { HelpArticle, HelpNote, HelpSection } from './help-article.tsx';
import { RETENTION_TEXT } from './retention-text.ts';

/** /about: what VitalWatch is, for whom, and what it is not (public). */
export function AboutPage() {
  return (
    <HelpArticle
      title="About VitalWatch"
      lead="VitalWatch connects wearable health devices to the people who watch over someone: family, carers and care teams."
    >
      <HelpSection id="what" title="What it does">
        <p>
          A wearable (a pulse oximeter, a watch, a fall detector) sends blood oxygen, heart rate, body
          temperature and battery readings, and events such as a fall or an SOS press. VitalWatch shows them
          live, draws their trends, and raises alerts when something needs attention: on the page, as push
          notifications and by e-mail, to everyone assigned to the device, and repeats an urgent one until
          someone acknowledges it.
        </p>
        <p>
          Administrators register devices, manage who may see them and keep an eye on the platform's health;
          every security-relevant action is recorded in an audit log.
        </p>
      </HelpSection>

      <HelpSection id="principles" title="How it is built">
        <ul>
          <li>
            <strong>Alerts you can trust:</strong> a short dip does not page anyone, a critical value or a
            fall never waits. The rules are in the{' '}
            <Link to={{ pathname: PATHS.guide, hash: '#alerts' }}>user guide</Link>.
          </li>
          <li>
            <strong>Data kept only as long as needed:</strong> readings are stored on the server that runs
            your VitalWatch, kept for a set time ({RETENTION_TEXT.raw} unless its operator chose otherwise)
            and then deleted.
          </li>
          <li>
            <strong>Open standards:</strong> devices send over HTTP or MQTT, notifications use Web Push, and
            other health systems can read vital signs as FHIR R4.
          </li>
        </ul>
      </HelpSection>

      <HelpSection id="limits" title="What it is not">
        <HelpNote>
          VitalWatch is not an emergency service and not a substitute for a doctor's care. Nobody at
          VitalWatch watches the alerts. In an emergency, call your local emergency number.
        </HelpNote>
        <p>
          Questions? See <Link to={PATHS.support}>Support</Link>.
        </p>
      </HelpSection>
    </HelpArticle>
  );
}
