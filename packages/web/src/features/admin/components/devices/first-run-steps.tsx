const strong = 'font-semibold text-slate-900 dark:text-white';

/**
 * What to do first on a platform with no devices: from adding one to a carer seeing it live,
 * with no terminal needed (the simulator is the optional shortcut).
 */
export function FirstRunSteps() {
  return (
    <section
      aria-labelledby="first-run-heading"
      className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300"
    >
      <h2 id="first-run-heading" className="text-base font-semibold text-slate-900 dark:text-white">
        Your first device, in three steps
      </h2>
      <ol className="mt-3 list-decimal space-y-2 pl-5">
        <li>
          <span className={strong}>Add Device</span> and give it a name. Assign the person it is for now, or
          let them add it later with its activation code.
        </li>
        <li>
          Open its <span className={strong}>View Details</span> (the eye in its row) and press{' '}
          <span className={strong}>Send a test reading</span>: the reading appears there, as its carers will
          see it. Then set the device up with its <span className={strong}>API auth code</span>; the HTTP and
          MQTT commands there have it filled in.
        </li>
        <li>
          Give the <span className={strong}>activation code</span> to the person who wears it or cares for
          them: they sign up and type it at <span className={strong}>My Devices → Add Device</span>.
        </li>
      </ol>
      <p className="mt-3">
        No hardware yet? Simulated devices, already assigned to a user:{' '}
        <code className="font-mono text-xs break-all">
          npm run simulate -- --admin-password &lt;password&gt; --assign-to &lt;username&gt;
        </code>
      </p>
    </section>
  );
}
