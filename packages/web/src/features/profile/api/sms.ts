import { contracts, type SmsStatus } from '@vitalwatch/shared';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.sms.status`: the number (masked), verified, opted out, and whether SMS is offered. */
export const smsStatus = async (): Promise<SmsStatus> => (await callContract(contracts.sms.status, {})).data;

/** `contracts.sms.setNumber`: keep the number and send it a code. */
export const setSmsNumber = async (phone: string): Promise<SmsStatus> =>
  (await callContract(contracts.sms.setNumber, { body: { phone } })).data;

/** `contracts.sms.verify`: check the code the number received. */
export const verifySmsNumber = async (code: string): Promise<SmsStatus> =>
  (await callContract(contracts.sms.verify, { body: { code } })).data;

/** `contracts.sms.remove`: forget the number. */
export const removeSmsNumber = async (): Promise<SmsStatus> =>
  (await callContract(contracts.sms.remove, {})).data;

/** `contracts.sms.test`: a test SMS now, and whether the provider accepted it. */
export const testSms = async () => (await callContract(contracts.sms.test, {})).data;
