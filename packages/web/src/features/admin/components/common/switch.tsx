interface SwitchProps {
  checked: boolean;
  /** The accessible name (the visible text beside it says the state). */
  label: string;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Visible state words, e.g. Active / Inactive. */
  onText: string;
  offText: string;
}

/** An on/off switch (role=switch) with its state in words next to it, so colour is never the only cue. */
export function Switch({ checked, label, onChange, disabled, onText, offText }: SwitchProps) {
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
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
      <span
        className={`text-sm font-medium ${checked ? 'text-green-700 dark:text-green-400' : 'text-slate-500 dark:text-slate-400'}`}
      >
        {checked ? onText : offText}
      </span>
    </span>
  );
}
