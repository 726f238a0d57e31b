import crypto from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import type { SeedEnv } from '../../core/module/app-module';
import { demoWebsite } from '../demo';
import { pagesDomainService } from './pages-domain.service';

let loaded: typeof X509 | undefined;

/** @peculiar/x509, loaded when a seed first needs it: the service process never does. */
function x509Library(): typeof X509 {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('@peculiar/x509') as typeof X509;
    loaded.cryptoProvider.set(crypto.webcrypto as unknown as Crypto);
  }
  return loaded;
}

/** A self-signed RSA certificate and its PKCS#8 key, made in process (demo data only). */
async function selfSigned(cn: string): Promise<{ certificate: string; key: string }> {
  const x509 = x509Library();
  const alg = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = (await crypto.webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${cn}`,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 365 * 86_400_000),
    signingAlgorithm: alg,
    keys,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: cn }])],
  });
  const pkcs8 = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    certificate: cert.toString('pem'),
    key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

/** Demo domains on acme/web/website, one http-only and one with a certificate; idempotent. */
export async function seedPagesDomains(env: SeedEnv): Promise<void> {
  const site = await demoWebsite(env, 'pages domains', 'pages_domains');
  if (!site) return;
  const { ctx, projectId } = site;
  await pagesDomainService.create(ctx, projectId, { domain: 'acme.test' });
  await pagesDomainService.create(ctx, projectId, { domain: 'www.acme.test', ...(await selfSigned('www.acme.test')) });
  env.log('pages domains: acme.test (http), www.acme.test (self-signed certificate) on acme/web/website');
}
