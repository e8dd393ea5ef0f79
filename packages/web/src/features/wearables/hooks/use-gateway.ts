import { type BleDateTime, type BleOutcome, contracts, INGEST_FUTURE_TOLERANCE_MS } from '@vitalwatch/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callContract } from '@/lib/call-contract.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { gatewaysApi } from '../api/get-gateways.ts';
import { gatewayKeys, type OwnGateway, readingQueue } from '../lib/queue.ts';
import { ReadingSender, type SenderStatus } from '../lib/sender.ts';
import { CHOOSER_OPTIONS, type LinkState, WearableLink } from '../lib/wearable-link.ts';
import { useWakeLock } from './use-wake-lock.ts';

export type Vital = 'spo2' | 'heartRate' | 'temperature' | 'battery';

export interface WearableView {
  id: string;
  name: string;
  state: LinkState;
  retry?: { inMs: number; lastError?: string };
}

export interface GatewayView {
  wearables: WearableView[];
  latest: Partial<Record<Vital, { value: number; at: string }>>;
  sender: SenderStatus;
  /** Packets dropped (status invalid / questionable, contact lost) or refused as malformed. */
  dropped: number;
  wakeLock: boolean;
  error: string | null;
}

const VITALS: Vital[] = ['spo2', 'heartRate', 'temperature', 'battery'];

/** The wearable's own time when it sent one that is not in the future, else now. */
function recordedAt(deviceTime: BleDateTime | undefined, now: Date): string {
  if (!deviceTime) return now.toISOString();
  const { year, month, day, hours, minutes, seconds } = deviceTime;
  const at = new Date(year, month - 1, day, hours, minutes, seconds);
  return at.getTime() - now.getTime() > INGEST_FUTURE_TOLERANCE_MS ? now.toISOString() : at.toISOString();
}

const browserLabel = (): string => {
  const ua = navigator.userAgent;
  const os = /Android/.test(ua)
    ? 'Android'
    : /Windows/.test(ua)
      ? 'Windows'
      : /Mac OS/.test(ua)
        ? 'macOS'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : 'Linux';
  return `Chrome on ${os}`;
};

/**
 * The gateway of one device in this browser: its key (issued on first pairing, kept in IndexedDB),
 * the sender that drains the queue, the paired wearables, and what the page shows of them.
 */
export function useGateway(deviceId: string) {
  const [view, setView] = useState<GatewayView>({
    wearables: [],
    latest: {},
    sender: { state: 'idle', queued: 0, lastSentAt: null, discarded: 0 },
    dropped: 0,
    wakeLock: false,
    error: null,
  });
  const dispatch = useAppDispatch();
  const sender = useRef<ReadingSender | null>(null);
  const [ownGatewayId, setOwnGatewayId] = useState<string | null>(null);
  const links = useRef<WearableLink[]>([]);
  const gathering = view.wearables.some((w) => w.state !== 'stopped');
  const wakeLock = useWakeLock(gathering);

  const startSender = useCallback(
    ({ id, key }: OwnGateway) => {
      sender.current?.stop();
      setOwnGatewayId(id);
      sender.current = new ReadingSender(deviceId, key, (status) => {
        // Revoked: pairing again issues this browser a new key.
        if (status.state === 'revoked') void gatewayKeys.forget(deviceId);
        setView((v) => ({ ...v, sender: status }));
      });
      sender.current.start();
    },
    [deviceId],
  );

  useEffect(() => {
    void gatewayKeys.get(deviceId).then((own) => own && startSender(own));
    return () => {
      sender.current?.stop();
      for (const link of links.current) link.stop();
    };
  }, [deviceId, startSender]);

  const onOutcome = useCallback(
    async (outcome: BleOutcome) => {
      if (outcome.kind !== 'values') {
        setView((v) => ({ ...v, dropped: v.dropped + 1 }));
        return;
      }
      const { deviceTime, ...values } = outcome.values;
      const reading = {
        messageId: crypto.randomUUID(),
        recordedAt: recordedAt(deviceTime, new Date()),
        ...values,
      };
      await readingQueue.add({ deviceId, reading });
      setView((v) => {
        const latest = { ...v.latest };
        for (const vital of VITALS) {
          const value = values[vital];
          if (value !== undefined) latest[vital] = { value, at: reading.recordedAt };
        }
        return { ...v, latest, sender: { ...v.sender, queued: v.sender.queued + 1 } };
      });
      sender.current?.kick();
    },
    [deviceId],
  );

  /** The chooser, then this browser's key if it has none, then the wearable's link. Call from a click. */
  const pair = useCallback(async () => {
    const bluetooth = navigator.bluetooth;
    if (!bluetooth) return;
    let device: BluetoothDevice;
    try {
      device = await bluetooth.requestDevice(CHOOSER_OPTIONS);
    } catch {
      return; // The chooser was closed without a choice.
    }
    try {
      if (!(await gatewayKeys.get(deviceId))) {
        const issued = await callContract(contracts.gateway.issue, {
          body: { deviceId, label: browserLabel() },
        });
        const { gateway } = issued.data;
        dispatch(gatewaysApi.util.updateQueryData('gateways', deviceId, (list) => [gateway, ...list]));
        const own = { id: gateway._id, key: issued.data.key };
        await gatewayKeys.set(deviceId, own);
        startSender(own);
      }
      const setState = (state: LinkState, retry?: WearableView['retry']) =>
        setView((v) => ({
          ...v,
          wearables: v.wearables.map((w) => (w.id === device.id ? { ...w, state, retry } : w)),
        }));
      setView((v) => ({
        ...v,
        error: null,
        wearables: [
          ...v.wearables.filter((w) => w.id !== device.id),
          { id: device.id, name: device.name || 'Wearable', state: 'connecting' },
        ],
      }));
      const link = new WearableLink(device, {
        onOutcome: (outcome) => void onOutcome(outcome),
        onState: setState,
        onInfo: (info) => void sender.current?.sendInfo(info),
      });
      links.current.push(link);
      await link.start();
    } catch (err) {
      setView((v) => ({ ...v, error: err instanceof Error ? err.message : String(err) }));
    }
  }, [deviceId, dispatch, onOutcome, startSender]);

  const disconnect = useCallback((id: string) => {
    for (const link of links.current.filter((l) => l.device.id === id)) link.stop();
    links.current = links.current.filter((l) => l.device.id !== id);
  }, []);

  /** After a revoke from this page: this browser's key is gone; pairing again issues a new one. */
  const forgetKey = useCallback(async () => {
    sender.current?.stop();
    sender.current = null;
    setOwnGatewayId(null);
    await gatewayKeys.forget(deviceId);
  }, [deviceId]);

  return { view: { ...view, wakeLock }, ownGatewayId, pair, disconnect, forgetKey };
}
