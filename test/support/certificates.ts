import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto.webcrypto as unknown as Crypto);

/**
 * Certificates made in process for the pages tests (@peculiar/x509 over Node's Web Crypto):
 * self-signed RSA and EC, a root → intermediate → leaf chain, expired, not yet valid, any key.
 */
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;

export interface Issued {
  cert: x509.X509Certificate;
  pem: string;
  keys: CryptoKeyPair;
  /** PKCS#8 PEM ("BEGIN PRIVATE KEY"). */
  keyPem: string;
}

export async function keyPair(kind: 'rsa' | 'ec' = 'rsa'): Promise<CryptoKeyPair> {
  return (await crypto.webcrypto.subtle.generateKey(kind === 'rsa' ? RSA : EC, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export async function pkcs8Pem(keys: CryptoKeyPair): Promise<string> {
  const der = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

/** The same key as PKCS#1 ("BEGIN RSA PRIVATE KEY") or SEC1 ("BEGIN EC PRIVATE KEY"). */
export function traditionalPem(keyPem: string): string {
  const key = crypto.createPrivateKey(keyPem);
  return key.export({ format: 'pem', type: key.asymmetricKeyType === 'rsa' ? 'pkcs1' : 'sec1' }).toString();
}

interface IssueOpts {
  cn: string;
  kind?: 'rsa' | 'ec';
  /** Days from now (negative: past). */
  from?: number;
  to?: number;
  ca?: boolean;
  issuer?: Issued;
  serial?: string;
}

export async function issue(opts: IssueOpts): Promise<Issued> {
  const kind = opts.kind ?? 'rsa';
  const keys = await keyPair(kind);
  const alg = kind === 'rsa' ? RSA : EC;
  const now = Date.now();
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(!!opts.ca, undefined, true)];
  if (!opts.ca) extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: opts.cn }]));
  const common = { serialNumber: opts.serial ?? crypto.randomBytes(8).toString('hex').replace(/^[89a-f]/, '1'), notBefore: new Date(now + (opts.from ?? -1) * DAY), notAfter: new Date(now + (opts.to ?? 365) * DAY), extensions };
  const cert = opts.issuer
    ? await x509.X509CertificateGenerator.create({
        ...common, subject: `CN=${opts.cn}`, issuer: opts.issuer.cert.subject, publicKey: keys.publicKey, signingKey: opts.issuer.keys.privateKey,
        signingAlgorithm: opts.issuer.keys.privateKey.algorithm.name === 'ECDSA' ? EC : RSA,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({ ...common, name: `CN=${opts.cn}`, signingAlgorithm: alg, keys });
  return { cert, pem: cert.toString('pem'), keys, keyPem: await pkcs8Pem(keys) };
}

/** root (self-signed CA) → intermediate (CA) → leaf for `cn`. */
export async function chain(cn: string, kind: 'rsa' | 'ec' = 'rsa'): Promise<{ root: Issued; intermediate: Issued; leaf: Issued }> {
  const root = await issue({ cn: 'Test Root CA', ca: true, kind });
  const intermediate = await issue({ cn: 'Test Intermediate CA', ca: true, issuer: root, kind });
  const leaf = await issue({ cn, issuer: intermediate, kind });
  return { root, intermediate, leaf };
}
