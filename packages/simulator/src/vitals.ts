/**
 * A wearable's vital signs over time: slow random drifts around a personal baseline, a lower
 * heart rate at night (by local hour), bursts of activity, occasional desaturation and fever
 * episodes, battery drain and recharge, and rare falls and SOS presses. Rates are per hour of
 * wall time, so the picture does not depend on how often the device reports. Seeded: the same
 * seed gives the same person.
 */

export interface Reading {
  spo2: number;
  heartRate: number;
  temperature: number;
  battery: number;
}

export type DeviceEvent = { alertType: 'FALL' | 'SOS'; alertTitle: string; alertMessage: string };

/** Mulberry32: small, fast, good enough for a simulation, and reproducible from a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable seed from a text (a device id), so a reused device keeps its person. */
export function seedFrom(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const HOUR_S = 3600;
/** Episode starts per hour. */
const RATES = { activity: 1.5, desaturation: 0.4, fever: 0.05, fall: 0.03, sos: 0.015 };

interface Episode {
  endsAt: number;
  startedAt: number;
  size: number;
}

export class VitalsModel {
  private readonly random: () => number;
  private readonly baseline: { heartRate: number; spo2: number; temperature: number };
  private drift = { heartRate: 0, spo2: 0, temperature: 0 };
  private battery: number;
  private charging = false;
  private episodes: { activity?: Episode; desaturation?: Episode; fever?: Episode } = {};
  private lastAt: number | undefined;

  constructor(seed: number) {
    this.random = seededRandom(seed);
    this.baseline = {
      heartRate: 62 + this.random() * 16,
      spo2: 96.5 + this.random() * 2.3,
      temperature: 97.5 + this.random() * 0.7,
    };
    this.battery = 40 + this.random() * 60;
  }

  /** The reading at `now` (ms since epoch), and any event the wearer raised since the last one. */
  next(now: number): { reading: Reading; events: DeviceEvent[] } {
    const dt = this.lastAt === undefined ? 1 : Math.min(Math.max((now - this.lastAt) / 1000, 0.001), HOUR_S);
    this.lastAt = now;
    const hour = new Date(now).getHours() + new Date(now).getMinutes() / 60;
    this.stepDrifts(dt);
    this.stepEpisodes(now, dt, hour);
    this.stepBattery(dt, hour);

    const fever = this.level(this.episodes.fever, now, 15 * 60);
    const activity = this.level(this.episodes.activity, now, 30);
    const desaturation = this.level(this.episodes.desaturation, now, 20);
    // Night-time dip of about 8 BPM, deepest around 3 a.m.; temperature peaks in the late afternoon.
    const night = hour < 7 ? Math.sin((Math.PI * hour) / 7) : 0;
    const circadianTemp = 0.35 * Math.cos(((hour - 17) / 24) * 2 * Math.PI);
    const temperature = this.baseline.temperature + circadianTemp + this.drift.temperature + fever;
    const heartRate =
      this.baseline.heartRate -
      8 * night +
      this.drift.heartRate +
      activity +
      10 * Math.max(0, temperature - 98.6) +
      this.gauss() * 1.5;
    const spo2 = Math.min(100, this.baseline.spo2 + this.drift.spo2 - desaturation + this.gauss() * 0.6);

    return {
      reading: {
        spo2: Math.round(clamp(spo2, 70, 100)),
        heartRate: Math.round(clamp(heartRate, 35, 200)),
        temperature: Math.round(clamp(temperature + this.gauss() * 0.08, 94, 106) * 10) / 10,
        battery: Math.round(this.battery),
      },
      events: this.stepEvents(dt),
    };
  }

  /** Ornstein–Uhlenbeck drifts: wander slowly, always pulled back to the baseline. */
  private stepDrifts(dt: number) {
    const ou = (x: number, tau: number, sd: number) =>
      x * Math.exp(-dt / tau) + sd * Math.sqrt(1 - Math.exp((-2 * dt) / tau)) * this.gauss();
    this.drift = {
      heartRate: ou(this.drift.heartRate, 600, 4),
      spo2: ou(this.drift.spo2, 900, 0.6),
      temperature: ou(this.drift.temperature, 1800, 0.15),
    };
  }

  private stepEpisodes(now: number, dt: number, hour: number) {
    const awake = hour >= 7 && hour < 23;
    const start = (
      rate: number,
      minS: number,
      maxS: number,
      min: number,
      max: number,
    ): Episode | undefined =>
      this.chance(rate, dt)
        ? {
            startedAt: now,
            endsAt: now + (minS + this.random() * (maxS - minS)) * 1000,
            size: min + this.random() * (max - min),
          }
        : undefined;
    const e = this.episodes;
    for (const key of ['activity', 'desaturation', 'fever'] as const) {
      if (e[key] && now > e[key].endsAt) e[key] = undefined;
    }
    if (awake) e.activity ??= start(RATES.activity, 120, 900, 15, 40);
    e.desaturation ??= start(RATES.desaturation, 45, 300, 4, 10);
    e.fever ??= start(RATES.fever, 20 * 60, 2 * HOUR_S, 1.5, 4);
  }

  /** Drains over about a day of wear (faster when active); charges on the cradle, often at night. */
  private stepBattery(dt: number, hour: number) {
    if (this.charging) {
      this.battery = Math.min(100, this.battery + (dt / 60) * 1.5);
      if (this.battery >= 100) this.charging = false;
      return;
    }
    const active = this.episodes.activity ? 1.5 : 1;
    this.battery = Math.max(0, this.battery - (dt / 60) * 0.12 * active);
    const night = hour >= 22 || hour < 6;
    if (this.battery < 8 || (night && this.battery < 60 && this.chance(0.5, dt))) this.charging = true;
  }

  private stepEvents(dt: number): DeviceEvent[] {
    const events: DeviceEvent[] = [];
    if (this.chance(RATES.fall, dt)) {
      events.push({
        alertType: 'FALL',
        alertTitle: 'Fall detected',
        alertMessage: 'The wearer may have fallen',
      });
    }
    if (this.chance(RATES.sos, dt)) {
      events.push({
        alertType: 'SOS',
        alertTitle: 'SOS pressed',
        alertMessage: 'The wearer pressed the SOS button',
      });
    }
    return events;
  }

  /** An episode's effect: ramps up over `rampS`, holds, ramps down over the same time. */
  private level(episode: Episode | undefined, now: number, rampS: number): number {
    if (!episode) return 0;
    const sinceStart = (now - episode.startedAt) / 1000;
    const untilEnd = (episode.endsAt - now) / 1000;
    return episode.size * clamp(Math.min(sinceStart, untilEnd) / rampS, 0, 1);
  }

  private chance(perHour: number, dt: number): boolean {
    return this.random() < 1 - Math.exp((-perHour * dt) / HOUR_S);
  }

  private gauss(): number {
    const u = Math.max(this.random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.random());
  }
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
