import { Navigate, useParams } from 'react-router';
import { claimPath, rememberClaim } from '@/lib/pending-claim.ts';

/**
 * `/claim/:code`, the link a device label's QR code opens: My Devices with Add Device open and the
 * code filled in. Signed out, the guard sends the person to sign in first; the code waits for them.
 */
export function ClaimLink() {
  const { code = '' } = useParams();
  rememberClaim(code);
  return <Navigate to={claimPath(code)} replace />;
}
