import { type TotpSetup, TWO_FACTOR, twoFactorCodeField } from '@vitalwatch/shared';
import { type ComponentProps, useState } from 'react';
import { Button } from './button.tsx';
import { TextField } from './form-field.tsx';

/** The code a person typed, normalized, or the message saying what is wrong with it. */
export function readTwoFactorCode(value: string): { code: string } | { error: string } {
  const parsed = twoFactorCodeField.safeParse(value);
  return parsed.success ? { code: parsed.data } : { error: parsed.error.issues[0]?.message ?? '' };
}

/** A code from the authenticator app, or a recovery code where `recovery` allows one. */
export function TwoFactorCodeField({
  recovery = true,
  ...rest
}: Omit<ComponentProps<typeof TextField>, 'label'> & { recovery?: boolean }) {
  return (
    <TextField
      label="Authentication code"
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      inputMode={recovery ? 'text' : 'numeric'}
      maxLength={20}
      hint={
        recovery
          ? `The ${TWO_FACTOR.digits}-digit code your authenticator app shows, or one of your recovery codes.`
          : `The ${TWO_FACTOR.digits}-digit code your authenticator app shows now.`
      }
      className="font-mono tracking-widest"
      {...rest}
    />
  );
}

/** The secret to add to an authenticator app: as a QR code to scan, and as a key to type. */
export function TotpSetupPanel({ setup }: { setup: TotpSetup }) {
  const key = setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret;
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <img
        src={setup.qrCode}
        alt="QR code to add VitalWatch to your authenticator app"
        width={176}
        height={176}
        className="size-44 shrink-0 rounded-lg border border-slate-200 bg-white p-1 dark:border-slate-700"
      />
      <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700 dark:text-slate-300">
        <li>
          Open an authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator,
          1Password or Aegis).
        </li>
        <li>
          Scan the QR code, or enter this key:{' '}
          <code className="mt-1 block w-fit rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all text-slate-900 dark:bg-slate-800 dark:text-slate-100">
            {key}
          </code>
        </li>
        <li>Enter the {TWO_FACTOR.digits}-digit code the app shows.</li>
      </ol>
    </div>
  );
}

/** Recovery codes, shown once: each works once, instead of a code from the app. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Save these recovery codes somewhere safe, away from your phone. Each one signs you in once if you lose
        your phone. They are shown only now.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button onClick={onDone}>I saved my codes</Button>
      </div>
    </div>
  );
}
