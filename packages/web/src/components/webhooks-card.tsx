import {
  type createWebhookBody,
  relativeTime,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  type WebhookDelivery,
  type WebhookRecord,
} from '@vitalwatch/shared';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { TextField } from '@/components/form-field.tsx';
import { SelectField } from '@/components/select-field.tsx';
import { ErrorState, LoadingRegion, Skeleton } from '@/components/status-panels.tsx';
import { WebhookDeliveryLog } from '@/components/webhook-delivery-log.tsx';
import { errorMessage } from '@/lib/api-error.ts';

type Format = (typeof WEBHOOK_FORMATS)[number];
const LOAD_FAILED = 'Failed to fetch webhooks';

/** Whether a delivery arrived, in words. */
const arrival = (ok: boolean, status: number | null) =>
  ok ? `Arrived (${status})` : status === null ? 'Did not arrive (no answer)' : `Did not arrive (${status})`;

/** Whose webhooks a card manages: a person's (Profile), a care team's or the platform's (admins). */
export interface WebhookCalls {
  list: () => Promise<WebhookRecord[]>;
  /** The new webhook's signing secret, shown this once. */
  create: (body: z.input<typeof createWebhookBody>) => Promise<{ secret: string }>;
  /** The webhooks left. */
  remove: (id: string) => Promise<WebhookRecord[]>;
  /** A signed test alert sent now, and what the receiver answered. */
  test: (id: string) => Promise<{ ok: boolean; status: number | null }>;
  /** The webhook's last tries, newest first. */
  log: (id: string) => Promise<WebhookDelivery[]>;
  /** Queue a logged message again. */
  replay: (id: string, deliveryId: string) => Promise<void>;
  /** A new signing secret, shown this once; the old one also signs for a day. */
  rotate: (id: string) => Promise<{ secret: string }>;
}

interface WebhooksCardProps {
  id: string;
  title: string;
  description: string;
  calls: WebhookCalls;
}

/**
 * A list of webhooks, each with "Send a test alert", its delivery log (with Replay), "Rotate secret"
 * (after a confirm; the new secret shown once, as when added) and Delete, and the form that adds
 * one (its secret shown once).
 */
export function WebhooksCard({ id, title, description, calls }: WebhooksCardProps) {
  const { list: listWebhooks, create: createWebhook, remove: deleteWebhook, test: testWebhook } = calls;
  const [hooks, setHooks] = useState<WebhookRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<Format>('json');
  const [routingKey, setRoutingKey] = useState('');
  const [logOf, setLogOf] = useState<string | null>(null);
  const [rotating, setRotating] = useState<WebhookRecord | null>(null);

  const load = useCallback(() => {
    setFailure(null);
    listWebhooks().then(setHooks, (error: unknown) => setFailure(errorMessage(error, LOAD_FAILED)));
  }, [listWebhooks]);
  useEffect(load, [load]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy('add');
    try {
      const made = await createWebhook({ url, format, ...(routingKey ? { routingKey } : {}) });
      setSecret(made.secret);
      setUrl('');
      setRoutingKey('');
      load();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add the webhook'));
    } finally {
      setBusy(null);
    }
  };

  const test = async (id: string) => {
    setBusy(id);
    try {
      const outcome = await testWebhook(id);
      setTests((t) => ({ ...t, [id]: arrival(outcome.ok, outcome.status) }));
      load();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to send a test alert'));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (id: string) => {
    setBusy(id);
    try {
      setHooks(await deleteWebhook(id));
      toast.success('Webhook deleted');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to delete the webhook'));
    } finally {
      setBusy(null);
    }
  };

  const rotate = async (hook: WebhookRecord) => {
    setBusy(hook._id);
    try {
      const made = await calls.rotate(hook._id);
      setSecret(made.secret);
      setRotating(null);
      load();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to rotate the signing secret'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card id={id} title={title} description={description}>
      {hooks === null && !failure && (
        <LoadingRegion label="Loading webhooks">
          <Skeleton className="h-14 w-full" />
        </LoadingRegion>
      )}
      {failure && <ErrorState title={LOAD_FAILED} message={failure} onRetry={load} />}
      {hooks && hooks.length > 0 && (
        <ul className="mb-4 divide-y divide-slate-100 dark:divide-slate-800">
          {hooks.map((hook) => (
            <li key={hook._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="break-all font-medium text-slate-900 dark:text-white">{hook.url}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {WEBHOOK_FORMAT_LABELS[hook.format]}
                  {hook.lastDelivery &&
                    ` · last: ${arrival(hook.lastDelivery.ok, hook.lastDelivery.status)} ${relativeTime(hook.lastDelivery.at)}`}
                </p>
                {hook.previousSecretUntil && (
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    The old secret also signs until {new Date(hook.previousSecretUntil).toLocaleString()}
                  </p>
                )}
                {tests[hook._id] && (
                  <p role="status" className="text-xs font-medium text-slate-800 dark:text-slate-200">
                    Test alert: {tests[hook._id]}
                  </p>
                )}
              </div>
              <div className="flex gap-2">
                <Button size="sm" disabled={busy === hook._id} onClick={() => void test(hook._id)}>
                  Send a test alert
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-expanded={logOf === hook._id}
                  aria-label={`Delivery log of ${hook.url}`}
                  onClick={() => setLogOf(logOf === hook._id ? null : hook._id)}
                >
                  Delivery log
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Rotate secret of ${hook.url}`}
                  disabled={busy === hook._id}
                  onClick={() => setRotating(hook)}
                >
                  Rotate secret
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Delete webhook ${hook.url}`}
                  disabled={busy === hook._id}
                  onClick={() => void remove(hook._id)}
                >
                  Delete
                </Button>
              </div>
              {logOf === hook._id && (
                <div className="w-full">
                  <WebhookDeliveryLog
                    webhookId={hook._id}
                    webhookUrl={hook.url}
                    log={calls.log}
                    replay={calls.replay}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title="Rotate the signing secret?"
        message={`A new secret is made for ${rotating?.url ?? 'this webhook'} and shown once. For 24 hours every message is signed with both the new and the old secret, so the receiver has time to switch; then only the new one.`}
        confirmLabel="Rotate secret"
        busyLabel="Rotating…"
        busy={rotating !== null && busy === rotating._id}
        onConfirm={() => rotating && void rotate(rotating)}
        onCancel={() => setRotating(null)}
      />
      {secret && (
        <div
          role="status"
          className="mb-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>Signing secret (copy it now: it is not shown again):</p>
          <code className="block break-all font-mono text-xs">{secret}</code>
        </div>
      )}
      <form className="grid gap-3 sm:grid-cols-2" onSubmit={(e) => void add(e)}>
        <TextField
          label="Webhook URL"
          type="url"
          required
          value={url}
          placeholder="https://hooks.example.com/…"
          onChange={(e) => setUrl(e.target.value)}
        />
        <SelectField label="Format" value={format} onChange={(e) => setFormat(e.target.value as Format)}>
          {WEBHOOK_FORMATS.map((f) => (
            <option key={f} value={f}>
              {WEBHOOK_FORMAT_LABELS[f]}
            </option>
          ))}
        </SelectField>
        {format === 'pagerduty' && (
          <TextField
            label="PagerDuty routing key"
            required
            value={routingKey}
            onChange={(e) => setRoutingKey(e.target.value)}
          />
        )}
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" disabled={busy === 'add'}>
            Add webhook
          </Button>
        </div>
      </form>
    </Card>
  );
}
