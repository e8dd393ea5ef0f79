import {
  GATEWAY_MESSAGES,
  gatewaysResponse,
  issueGatewayBody,
  issueGatewayResponse,
  listGatewaysBody,
  revokeGatewayBody,
} from '../schemas/gateway.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/**
 * `/api/v1/gateway/*`: a user issues, lists and revokes the browser gateways of a device they may
 * see (any other device: 404). The key is in the reply to `issue` only.
 */
export const gatewayContracts = defineContracts('/gateway', 'user', {
  issue: {
    method: 'POST',
    path: '/issue',
    summary: 'Issue a gateway key for this browser',
    body: issueGatewayBody,
    response: issueGatewayResponse,
    status: 201,
    message: GATEWAY_MESSAGES.issued,
    errors: RECORD_ERRORS,
  },
  list: {
    method: 'POST',
    path: '/list',
    summary: "A device's gateways",
    body: listGatewaysBody,
    response: gatewaysResponse,
    message: GATEWAY_MESSAGES.listed,
    errors: RECORD_ERRORS,
  },
  revoke: {
    method: 'POST',
    path: '/revoke',
    summary: 'Revoke a gateway key',
    body: revokeGatewayBody,
    response: gatewaysResponse,
    message: GATEWAY_MESSAGES.revoked,
    errors: RECORD_ERRORS,
  },
});
