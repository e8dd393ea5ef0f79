import { useRef, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { IconButton } from '@/components/icon-button.tsx';
import { CopyIcon, EyeIcon, EyeOffIcon, RefreshIcon } from '@/components/icons.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { copyWithToast } from '../../utils/copy.ts';

interface CodeRowProps {
  label: string;
  /** Who uses this code, and where. */
  hint: string;
  code: string;
  /** Toast after a copy ('Activation code copied!', 'API auth code copied!'). */
  copiedMessage: string;
  /** A secret starts hidden behind dots and has a show toggle. */
  secret?: boolean;
  /** What the confirmation says will happen to the old code. */
  regenerateWarning: string;
  /** Replaces the code; resolves when the call is over (the toast is the caller's). */
  onRegenerate: () => Promise<void>;
}

/** One device code: shown (or masked), copyable, and regenerable after a confirmation. */
export function CodeRow({
  label,
  hint,
  code,
  copiedMessage,
  secret,
  regenerateWarning,
  onRegenerate,
}: CodeRowProps) {
  const [revealed, setRevealed] = useState(!secret);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const regenerateButton = useRef<HTMLButtonElement>(null);

  // The question takes focus (on Cancel, the safe answer); answering it hands focus back.
  const closeQuestion = () => {
    setConfirming(false);
    regenerateButton.current?.focus();
  };
  const regenerate = async () => {
    setBusy(true);
    await onRegenerate();
    setBusy(false);
    closeQuestion();
  };

  return (
    <div className="rounded-xl border border-slate-200 p-3 dark:border-slate-700">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
          {label}
        </span>
        <div className="flex gap-1">
          {secret && (
            <IconButton
              label={revealed ? `Hide ${label}` : `Show ${label}`}
              aria-pressed={revealed}
              icon={revealed ? <EyeOffIcon className="size-4" /> : <EyeIcon className="size-4" />}
              onClick={() => setRevealed((r) => !r)}
            />
          )}
          <IconButton
            label={`Copy ${label}`}
            icon={<CopyIcon className="size-4" />}
            onClick={() => copyWithToast(code, copiedMessage)}
          />
          <IconButton
            ref={regenerateButton}
            label={`Regenerate ${label}`}
            icon={<RefreshIcon className="size-4" />}
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          />
        </div>
      </div>
      <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{hint}</p>
      {revealed ? (
        <code className="mt-1 block font-mono text-sm break-all text-slate-900 dark:text-slate-100">
          {code}
        </code>
      ) : (
        <p className="mt-1 font-mono text-sm text-slate-900 dark:text-slate-100">
          <span aria-hidden="true">{'•'.repeat(Math.min(code.length, 24))}</span>
          <span className="sr-only">Hidden</span>
        </p>
      )}
      {confirming && (
        <div
          role="alertdialog"
          aria-label={`Regenerate ${label}?`}
          className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
        >
          <p>{regenerateWarning}</p>
          <div className="mt-2 flex justify-end gap-2">
            {/* The question just opened: focus goes to its safe answer. */}
            <Button variant="secondary" size="sm" disabled={busy} onClick={closeQuestion} autoFocus>
              Cancel
            </Button>
            <Button variant="danger" size="sm" disabled={busy} onClick={regenerate}>
              {busy && <Spinner className="size-4" />}
              Regenerate
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
