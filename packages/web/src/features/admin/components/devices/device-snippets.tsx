import { type AdminDevice, DEVICE_SETUP_MESSAGES, type MqttEndpoint } from '@vitalwatch/shared';
import { IconButton } from '@/components/icon-button.tsx';
import { CopyIcon } from '@/components/icons.tsx';
import { copyWithToast } from '../../utils/copy.ts';
import { curlSnippet, masked, mosquittoSnippet } from '../../utils/device-snippets.ts';

function Snippet({
  title,
  text,
  shown,
  copied,
}: {
  title: string;
  text: string;
  shown: string;
  copied: string;
}) {
  return (
    <div className="rounded-xl border border-slate-200 dark:border-slate-700">
      <div className="flex items-center justify-between gap-2 px-3 pt-2">
        <span className="text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">
          {title}
        </span>
        <IconButton
          label={`Copy ${title} snippet`}
          icon={<CopyIcon className="size-4" />}
          onClick={() => copyWithToast(text, copied)}
        />
      </div>
      {/* Wrapped, never scrolled sideways: a scrolling region would need its own tab stop. */}
      <pre className="px-3 pt-1 pb-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-800 dark:text-slate-200">
        {shown}
      </pre>
    </div>
  );
}

interface DeviceSnippetsProps {
  device: AdminDevice;
  /** Where MQTT listens (null: off on this server; undefined: not known yet). */
  mqtt: MqttEndpoint | null | undefined;
}

/**
 * Commands that send one reading exactly as the device will: over HTTP to this server's origin,
 * and over MQTT to its broker, with the device's id and API auth code filled in.
 */
export function DeviceSnippets({ device, mqtt }: DeviceSnippetsProps) {
  const { origin, hostname } = window.location;
  const code = device.apiAuthCode;
  const curl = curlSnippet(origin, code);
  const mqttText = mqtt ? mosquittoSnippet(mqtt.host ?? hostname, mqtt.port, device._id, code) : null;
  return (
    <section aria-labelledby="device-snippets-heading" className="space-y-3">
      <div>
        <h3 id="device-snippets-heading" className="font-semibold text-slate-900 dark:text-white">
          Send readings from the device
        </h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Each command sends one reading the way the device will: run one in a terminal, or give the device
          the same address and code. The API auth code shows as dots here; the copy has it.
        </p>
      </div>
      <Snippet
        title="HTTP (curl)"
        text={curl}
        shown={masked(curl, code)}
        copied={DEVICE_SETUP_MESSAGES.httpSnippetCopied}
      />
      {mqttText ? (
        <Snippet
          title="MQTT (mosquitto_pub)"
          text={mqttText}
          shown={masked(mqttText, code)}
          copied={DEVICE_SETUP_MESSAGES.mqttSnippetCopied}
        />
      ) : (
        mqtt === null && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            MQTT is off on this server (MQTT_PORT=0): devices send over HTTP.
          </p>
        )
      )}
    </section>
  );
}
