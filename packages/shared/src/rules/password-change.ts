import { PASSWORD_CHANGE_BUTTON_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { VALIDATION } from '../messages.ts';

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const hasAllClasses = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s);

/** The update button is enabled only when the two match and the new one has at least 6 characters. */
export function canSubmitPasswordChange({ newPassword, confirmPassword }: PasswordChangeInput): boolean {
  return newPassword === confirmPassword && newPassword.length >= PASSWORD_CHANGE_BUTTON_MIN_LENGTH;
}

/**
 * The spec's (deliberately weak) submit check: match, differ, and fail the strength test only
 * when both the length test and the character-class test fail. Returns the message, or null.
 */
export function passwordChangeError({
  currentPassword,
  newPassword,
  confirmPassword,
}: PasswordChangeInput): string | null {
  if (newPassword !== confirmPassword) return VALIDATION.passwordsMismatch;
  if (newPassword === currentPassword) return VALIDATION.newPasswordSame;
  if (newPassword.length < PASSWORD_MIN_LENGTH && !hasAllClasses(newPassword))
    return VALIDATION.passwordChangeWeak;
  return null;
}
