import { Link } from 'react-router';

/** What a browser without Web Bluetooth (Firefox, Safari, iOS) says instead of the chooser. */
export function NoBluetooth() {
  return (
    <section
      aria-labelledby="no-bluetooth"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-5 text-slate-800 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id="no-bluetooth" className="font-semibold">
        This browser cannot talk to Bluetooth wearables
      </h2>
      <p className="mt-2 text-sm">
        Pairing a wearable needs Web Bluetooth: Chrome or Edge on Android, Windows, macOS, ChromeOS or Linux
        (on Linux, turn on chrome://flags/#enable-web-bluetooth). Firefox and Safari, and every browser on
        iPhone and iPad, do not offer it.
      </p>
      <p className="mt-2 text-sm">Other ways to send readings to this device:</p>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
        <li>Its firmware posts to the HTTP API or publishes over MQTT with the device's API auth code.</li>
        <li>
          The simulator streams realistic readings (<code>npm run simulate</code>); see the{' '}
          <Link className="font-medium underline" to="/guide">
            User Guide
          </Link>
          .
        </li>
      </ul>
    </section>
  );
}
