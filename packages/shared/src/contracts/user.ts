import { z } from 'zod';
import { SERVER_MESSAGES } from '../messages.ts';
import { UNIT_MESSAGES } from '../rules/units.ts';
import { messageOnly } from '../schemas/common.ts';
import { saveFcmTokenBody } from '../schemas/push.ts';
import { loginResponse } from '../schemas/two-factor.ts';
import {
  alertEmailsBody,
  authResponse,
  changePasswordBody,
  changePasswordResponse,
  loginBody,
  profileResponse,
  quietHoursBody,
  refreshBody,
  refreshResponse,
  signupBody,
  temperatureUnitBody,
  updateNameBody,
} from '../schemas/user.ts';
import { defineContracts } from './contract.ts';

/** `POST /user/logout`: the browser's refresh token, when it has one, is revoked with the session. */
export const logoutBody = z.object({ refreshToken: z.string().max(200).optional() }).nullish();

/** `/api/v1/user/*`: sign-up, sign-in, the session and the caller's own settings. */
export const userContracts = defineContracts('/user', 'signed-in', {
  signUp: {
    method: 'POST',
    path: '/create',
    auth: 'public',
    summary: 'Sign up',
    body: signupBody,
    response: authResponse,
    status: 201,
    message: SERVER_MESSAGES.userCreated,
    errors: [409],
  },
  logIn: {
    method: 'POST',
    path: '/login',
    auth: 'public',
    summary: 'Sign in with name and password',
    body: loginBody,
    response: loginResponse,
    message: SERVER_MESSAGES.loggedIn,
    errors: [401],
  },
  refresh: {
    method: 'POST',
    path: '/refresh',
    auth: 'public',
    summary: 'Trade a refresh token for a new token pair',
    body: refreshBody,
    response: refreshResponse,
    message: SERVER_MESSAGES.tokensRefreshed,
    errors: [401],
  },
  getProfile: {
    method: 'GET',
    path: '/profile',
    summary: "The caller's profile",
    response: profileResponse,
    message: SERVER_MESSAGES.profile,
  },
  logOut: {
    method: 'POST',
    path: '/logout',
    summary: 'Sign out (ends the session)',
    body: logoutBody,
    response: messageOnly,
    message: SERVER_MESSAGES.loggedOut,
  },
  updateName: {
    method: 'POST',
    path: '/update-name',
    summary: 'Change the display name',
    body: updateNameBody,
    response: profileResponse,
    message: SERVER_MESSAGES.nameUpdated,
  },
  setAlertEmails: {
    method: 'POST',
    path: '/alert-emails',
    summary: 'Turn alert e-mails on or off',
    body: alertEmailsBody,
    response: profileResponse,
  },
  setChannelChecks: {
    method: 'POST',
    path: '/channel-checks',
    summary: 'Turn the daily check of browsers that showed nothing for a day on or off',
    body: alertEmailsBody,
    response: profileResponse,
  },
  setTemperatureUnit: {
    method: 'POST',
    path: '/temperature-unit',
    summary: 'Choose °F or °C',
    body: temperatureUnitBody,
    response: profileResponse,
    message: UNIT_MESSAGES.saved,
  },
  setQuietHours: {
    method: 'POST',
    path: '/quiet-hours',
    summary: 'Set quiet hours for notifications',
    body: quietHoursBody,
    response: profileResponse,
  },
  changePassword: {
    method: 'POST',
    path: '/change-password',
    summary: 'Change the password',
    body: changePasswordBody,
    response: changePasswordResponse,
    message: SERVER_MESSAGES.passwordChanged,
  },
  saveFcmToken: {
    method: 'POST',
    path: '/save-fcm-token',
    summary: 'Store a mobile push token',
    body: saveFcmTokenBody,
    response: messageOnly,
    message: SERVER_MESSAGES.fcmTokenSaved,
  },
});
