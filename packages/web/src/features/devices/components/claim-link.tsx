import { Navigate, useParams } from 'react-router';
import { claimPath } from '@/lib/paths.ts';

/**
 * `/claim/:code`, the link a device label's QR code opens: My Devices with Add Device open and the
 * code filled in. Signed out, the guard sends the person to sign in with that address as `?next=`.
 */
export function ClaimLink() {
  const { code = '' } = useParams();
  return <Navigate to={claimPath(code)} replace />;
}
