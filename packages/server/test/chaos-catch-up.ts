import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The ids of the newest alerts a carer may see, asked through the balancer until it answers (10 s
 * at most): the balancer sends requests to a killed process until its health checks mark it down
 * (two failed checks, 300 ms apart), and the web app, too, shows a failed refresh and tries again.
 */
export async function latestAlertIds(base: string, accessToken: string): Promise<string[]> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${base}/api/v1/alert/latest/10`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) {
        const body = (await res.json()) as { data: { alerts: { _id: string }[] } };
        return body.data.alerts.map((a) => a._id);
      }
    } catch {}
    await sleep(250);
  }
  return [];
}
