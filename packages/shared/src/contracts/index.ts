import { accountContracts } from './account.ts';
import { adminContracts, adminDeviceContracts } from './admin.ts';
import { adminShareContracts, auditContracts, deviceSetupContracts } from './admin-tools.ts';
import { alertContracts } from './alert.ts';
import { backupContracts } from './backup.ts';
import { boardContracts } from './board.ts';
import { adminCircleContracts, circleContracts } from './circle.ts';
import { deviceContracts } from './device.ts';
import { exportContracts } from './export.ts';
import { fhirContracts } from './fhir.ts';
import { fleetContracts } from './fleet.ts';
import { gatewayContracts } from './gateway.ts';
import { healthContracts } from './health.ts';
import { brokerHookContracts, ingestContracts } from './ingest.ts';
import { pushContracts } from './push.ts';
import { shareContracts, sharedContracts } from './share.ts';
import { smsContracts } from './sms.ts';
import { teamContracts } from './team.ts';
import { twoFactorContracts } from './two-factor.ts';
import { userContracts } from './user.ts';
import { platformWebhookContracts, teamWebhookContracts, webhookContracts } from './webhook.ts';

/** Every endpoint that has a contract, by module: what the server registers and the web calls. */
export const contracts = {
  user: userContracts,
  account: accountContracts,
  twoFactor: twoFactorContracts,
  device: deviceContracts,
  health: healthContracts,
  share: shareContracts,
  shared: sharedContracts,
  export: exportContracts,
  alert: alertContracts,
  circle: circleContracts,
  adminCircle: adminCircleContracts,
  gateway: gatewayContracts,
  webhook: webhookContracts,
  teamWebhook: teamWebhookContracts,
  platformWebhook: platformWebhookContracts,
  sms: smsContracts,
  admin: adminContracts,
  adminDevice: adminDeviceContracts,
  fleet: fleetContracts,
  team: teamContracts,
  board: boardContracts,
  push: pushContracts,
  backup: backupContracts,
  deviceSetup: deviceSetupContracts,
  audit: auditContracts,
  adminShare: adminShareContracts,
  fhir: fhirContracts,
  ingest: ingestContracts,
  brokerHook: brokerHookContracts,
};
