import crypto, { type KeyObject } from 'node:crypto';
import tls from 'node:tls';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto.webcrypto as unknown as Crypto);

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const PEM_PRIVATE_KEY = /-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/;

/** The certificates of a PEM bundle, leaf first; null when the first one does not parse. */
export function parseCertificates(pem: string): x509.X509Certificate[] | null {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  const certs: x509.X509Certificate[] = [];
  for (const block of blocks) {
    try {
      certs.push(new x509.X509Certificate(block));
    } catch {
      if (certs.length === 0) return null;
    }
  }
  return certs.length ? certs : null;
}

/** An unencrypted PEM private key, RSA or EC (PKCS#1, SEC1 or PKCS#8); null otherwise. */
export function parsePrivateKey(pem: string): KeyObject | null {
  if (!PEM_PRIVATE_KEY.test(pem)) return null;
  try {
    const key = crypto.createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec' ? key : null;
  } catch {
    return null;
  }
}

/** Does the private key belong to the certificate's public key (same SubjectPublicKeyInfo)? */
export function keyMatches(cert: x509.X509Certificate, key: KeyObject): boolean {
  const spki = crypto.createPublicKey(key).export({ type: 'spki', format: 'der' });
  return spki.equals(Buffer.from(cert.publicKey.rawData));
}

async function signedBy(cert: x509.X509Certificate, issuer: x509.X509Certificate): Promise<boolean> {
  try {
    return await cert.verify({ publicKey: issuer.publicKey, signatureOnly: true });
  } catch {
    return false;
  }
}

const validAt = (cert: x509.X509Certificate, now: Date) => cert.notBefore <= now && now <= cert.notAfter;

function mayIssue(cert: x509.X509Certificate): boolean {
  const bc = cert.getExtension(x509.BasicConstraintsExtension);
  return !bc || bc.ca;
}

let systemRoots: { der: Buffer; pem: string; cert?: x509.X509Certificate }[] | undefined;
/**
 * Candidate issuers from the trust store Node ships (Mozilla's roots): only roots whose DER contains
 * the wanted issuer name are parsed (parsing all ~140 costs seconds), each at most once.
 */
export function rootsIssuing(cert: x509.X509Certificate): x509.X509Certificate[] {
  systemRoots ??= tls.rootCertificates.map((pem) => ({ pem, der: Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64') }));
  const name = Buffer.from(cert.issuerName.toArrayBuffer());
  const out: x509.X509Certificate[] = [];
  for (const root of systemRoots) {
    if (root.der.indexOf(name) < 0) continue;
    root.cert ??= parseCertificates(root.pem)?.[0];
    if (root.cert) out.push(root.cert);
  }
  return out;
}

/**
 * GitLab's `has_intermediates?`: a self-signed leaf passes; otherwise the leaf must verify up to a
 * self-signed root using the certificates of the bundle and the system roots, every certificate of
 * the path valid now (as OpenSSL's store verification requires).
 */
export async function chainVerifies(certs: x509.X509Certificate[], now: Date): Promise<boolean> {
  const [leaf] = certs;
  if (await signedBy(leaf, leaf)) return true;
  let current = leaf;
  for (let depth = 0; depth < 10; depth += 1) {
    if (!validAt(current, now)) return false;
    if (current !== leaf && (await signedBy(current, current))) return true;
    let next: x509.X509Certificate | undefined;
    for (const candidate of [...certs.slice(1), ...rootsIssuing(current)]) {
      if (candidate !== current && candidate.subject === current.issuer && mayIssue(candidate) && (await signedBy(current, candidate))) {
        next = candidate;
        break;
      }
    }
    if (!next) return false;
    current = next;
  }
  return false;
}

const SHORT_NAMES: Record<string, string> = { E: 'emailAddress' };

/** X.509 subject in OpenSSL's one-line form, as Ruby's `X509::Name#to_s`: `/C=NL/O=Acme/CN=ssl.domain.test`. */
export function slashSubject(cert: x509.X509Certificate): string {
  return cert.subjectName
    .toJSON()
    .map((rdn) => Object.entries(rdn).map(([type, values]) => values.map((v) => `${SHORT_NAMES[type] ?? type}=${v}`).join('+')).join('+'))
    .map((part) => `/${part}`)
    .join('');
}
