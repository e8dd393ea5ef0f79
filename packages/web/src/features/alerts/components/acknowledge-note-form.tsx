import { ALERT_NOTE_MAX, type AlertRecord, alertNote } from '@vitalwatch/shared';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/button.tsx';
import { TextAreaField } from '@/components/form-field.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { useAlertAction } from '../hooks/use-alert-action.ts';

interface AcknowledgeNoteFormProps {
  alert: AlertRecord;
  /** Closed: cancelled, or acknowledged. */
  onClose: () => void;
}

/**
 * Acknowledge with a note the other carers read on the alert's timeline ("On my way, 10 minutes").
 * The note is optional and checked as the server checks it (at most 500 characters, no control
 * characters); what either refuses shows under the field.
 */
export function AcknowledgeNoteForm({ alert, onClose }: AcknowledgeNoteFormProps) {
  const { busy, act } = useAlertAction();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = alertNote.safeParse(note);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      field.current?.focus();
      return;
    }
    const outcome = await act('acknowledge', alert, parsed.data || undefined);
    if (outcome.ok) onClose();
    else if (outcome.noteIssue) setError(outcome.noteIssue);
  };
  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label={`Acknowledge ${alert.alertTitle} with a note`}
      className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-700 dark:bg-slate-800/60"
    >
      <TextAreaField
        ref={field}
        label="Note (optional)"
        hint={`For the other carers: what you are doing about it. ${note.length}/${ALERT_NOTE_MAX} characters.`}
        error={error}
        value={note}
        rows={2}
        className="min-h-16"
        onChange={(e) => {
          setNote(e.target.value);
          setError(undefined);
        }}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" size="sm" onClick={onClose}>
          Cancel
        </Button>
        <Button
          type="submit"
          size="sm"
          variant={alert.priority === 'high' ? 'danger' : 'primary'}
          disabled={busy !== null}
        >
          {busy && <Spinner className="size-4" />}
          Acknowledge with note
        </Button>
      </div>
    </form>
  );
}
