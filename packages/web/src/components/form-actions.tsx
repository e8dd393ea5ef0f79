import type { ComponentProps } from 'react';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

interface SubmitButtonProps extends Omit<ComponentProps<typeof Button>, 'type' | 'children'> {
  /** While the form is being sent: disabled, with a spinner and `busyLabel`. */
  busy: boolean;
  label: string;
  busyLabel: string;
}

/** A form's submit button: disabled with a busy indicator while submitting (spec 4). */
export function SubmitButton({ busy, label, busyLabel, disabled, ...rest }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={disabled || busy} {...rest}>
      {busy && <Spinner className="size-4" />}
      {busy ? busyLabel : label}
    </Button>
  );
}

interface FormActionsProps {
  onCancel: () => void;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** The form may not be sent yet (besides while busy). */
  disabled?: boolean;
  /** Spacing above the row. */
  className?: string;
}

/** Cancel and submit, right-aligned, stacked on small screens; nothing can be cancelled mid-call. */
export function FormActions({
  onCancel,
  submitLabel,
  busyLabel,
  busy,
  disabled,
  className = '',
}: FormActionsProps) {
  return (
    <div className={`flex flex-col-reverse gap-2 sm:flex-row sm:justify-end ${className}`}>
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <SubmitButton busy={busy} label={submitLabel} busyLabel={busyLabel} disabled={disabled} />
    </div>
  );
}
