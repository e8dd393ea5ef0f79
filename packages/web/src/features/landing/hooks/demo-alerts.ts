import { DEMO_ALERTS_CAP } from '@vitalwatch/shared';

/** Sample alerts of the landing page (spec section 3): never real data. */
export type DemoAlertType = 'alert' | 'info' | 'warning';

export interface DemoAlert {
  id: number;
  type: DemoAlertType;
  title: string;
  message: string;
  /** Epoch milliseconds; the time label is derived from it. */
  createdAt: number;
  read: boolean;
}

type Template = Pick<DemoAlert, 'type' | 'title' | 'message'>;

/** The fixed list of four simulated alerts, added in turn every 15 seconds. */
export const DEMO_ALERT_TEMPLATES: readonly Template[] = [
  {
    type: 'alert',
    title: 'Elevated Heart Rate',
    message: 'Heart rate of 124 BPM detected while resting — above the normal range.',
  },
  {
    type: 'info',
    title: 'Daily Health Report',
    message: 'Your daily summary is ready: vitals stayed in range 96% of the day.',
  },
  {
    type: 'warning',
    title: 'Low Activity',
    message: 'Only 1,200 steps so far today. A short walk helps circulation.',
  },
  {
    type: 'alert',
    title: 'Irregular Rhythm',
    message: 'An irregular heart rhythm was detected. Consider contacting your doctor.',
  },
];

export interface DemoAlertsState {
  alerts: DemoAlert[];
  nextId: number;
  /** Index of the template the next simulated alert uses. */
  nextTemplate: number;
}

export type DemoAlertsAction = { type: 'tick'; now: number } | { type: 'markRead'; id: number };

const MINUTE = 60_000;

/** The section opens with a few alerts already there, newest first. */
export function initialDemoAlerts(now: number): DemoAlertsState {
  const seeds: [Template, number][] = [
    [
      {
        type: 'alert',
        title: 'Low Blood Oxygen',
        message: 'SpO2 dropped to 91% during sleep. Caregiver notified.',
      },
      2 * MINUTE,
    ],
    [DEMO_ALERT_TEMPLATES[1]!, 45 * MINUTE],
    [
      {
        type: 'warning',
        title: 'Battery Low',
        message: 'Wristband battery at 15%. Charge it tonight to keep monitoring.',
      },
      3 * 60 * MINUTE,
    ],
  ];
  return {
    alerts: seeds.map(([template, age], index) => ({
      ...template,
      id: index + 1,
      createdAt: now - age,
      read: false,
    })),
    nextId: seeds.length + 1,
    nextTemplate: 0,
  };
}

export function demoAlertsReducer(state: DemoAlertsState, action: DemoAlertsAction): DemoAlertsState {
  switch (action.type) {
    case 'tick': {
      const template = DEMO_ALERT_TEMPLATES[state.nextTemplate % DEMO_ALERT_TEMPLATES.length]!;
      const alert: DemoAlert = { ...template, id: state.nextId, createdAt: action.now, read: false };
      return {
        alerts: [alert, ...state.alerts].slice(0, DEMO_ALERTS_CAP),
        nextId: state.nextId + 1,
        nextTemplate: (state.nextTemplate + 1) % DEMO_ALERT_TEMPLATES.length,
      };
    }
    case 'markRead':
      return {
        ...state,
        alerts: state.alerts.map((a) => (a.id === action.id && !a.read ? { ...a, read: true } : a)),
      };
  }
}
