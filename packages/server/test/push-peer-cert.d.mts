export interface CertFiles {
  certFile: string;
  keyFile: string;
}
export declare function e2ePushPeerFiles(port: string): CertFiles;
export declare function writeSelfSignedCert(dir: string): CertFiles;
export declare function writeE2ePushPeerCert(port: string): CertFiles;
