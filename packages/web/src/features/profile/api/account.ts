import { contracts } from '@vitalwatch/shared';
import { callContract, downloadContract } from '@/lib/call-contract.ts';

/** POST /account/send-verification: a new link to the caller's address. */
export const sendVerification = () => callContract(contracts.account.sendVerification, {});

/** GET /account/sessions. */
export const listSessions = async () => (await callContract(contracts.account.sessions, {})).data.sessions;

/** DELETE /account/sessions/:id; `current` when it is this browser's own (inside `endingSession`). */
export const endSession = (id: string, current: boolean) =>
  callContract(contracts.account.endSession, { params: { id } }, { endsSession: current });

/** POST /account/sessions/end-others. */
export const endOtherSessions = () => callContract(contracts.account.endOtherSessions, {});

/** GET /account/data: the ZIP of everything about the caller. */
export const downloadMyData = () => downloadContract(contracts.account.dataExport, {});

/** POST /account/close (inside `endingSession`). */
export const closeAccount = (password: string, code?: string) =>
  callContract(
    contracts.account.close,
    { body: { password, ...(code ? { code } : {}) } },
    { endsSession: true },
  );
