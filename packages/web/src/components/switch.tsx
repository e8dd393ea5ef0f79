/** What names the switch for screen readers: its own label, or the id of visible text beside it. */
type SwitchName = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

type SwitchProps = SwitchName & {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** While a change is saved: presses are ignored, focus stays. */
  disabled?: boolean;
  /** Visible state words, e.g. Active / Inactive, where the text beside it does not say the state. */
  onText?: string;
  offText?: string;
};

/**
 * An on/off switch (role=switch): green when on, with a knob that moves, a focus ring, and
 * optionally its state in words next to it, so colour is never the only cue.
 */
export function Switch({ checked, label, labelledBy, onChange, disabled, onText, offText }: SwitchProps) {
  const words = checked ? onText : offText;
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        aria-labelledby={labelledBy}
        // aria-disabled, not disabled: a disabled button drops keyboard focus to <body> while the
        // change is saved; this one keeps focus and ignores presses until it is done.
        aria-disabled={disabled || undefined}
        onClick={() => {
          if (!disabled) onChange(!checked);
        }}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 aria-disabled:cursor-wait aria-disabled:opacity-60 dark:focus-visible:outline-teal-400 ${
          checked ? 'bg-green-600 dark:bg-green-500' : 'bg-slate-300 dark:bg-slate-600'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            checked ? 'translate-x-5.5' : 'translate-x-0.5'
          }`}
        />
      </button>
      {words && (
        <span
          className={`text-sm font-medium ${checked ? 'text-green-700 dark:text-green-400' : 'text-slate-500 dark:text-slate-400'}`}
        >
          {words}
        </span>
      )}
    </span>
  );
}
