import { childrenOf, oidText, type Tlv } from './pages-der';

/**
 * OpenSSL's names for the object identifiers a pages certificate shows ([short name, long name], from
 * OpenSSL's objects table), and X.509 names printed as OpenSSL prints them.
 */
export const OIDS: Record<string, [string, string]> = {
  '2.5.4.3': ['CN', 'commonName'],
  '2.5.4.4': ['SN', 'surname'],
  '2.5.4.5': ['serialNumber', 'serialNumber'],
  '2.5.4.6': ['C', 'countryName'],
  '2.5.4.7': ['L', 'localityName'],
  '2.5.4.8': ['ST', 'stateOrProvinceName'],
  '2.5.4.9': ['street', 'streetAddress'],
  '2.5.4.10': ['O', 'organizationName'],
  '2.5.4.11': ['OU', 'organizationalUnitName'],
  '2.5.4.12': ['title', 'title'],
  '2.5.4.13': ['description', 'description'],
  '2.5.4.15': ['businessCategory', 'businessCategory'],
  '2.5.4.17': ['postalCode', 'postalCode'],
  '2.5.4.41': ['name', 'name'],
  '2.5.4.42': ['GN', 'givenName'],
  '2.5.4.43': ['initials', 'initials'],
  '2.5.4.44': ['generationQualifier', 'generationQualifier'],
  '2.5.4.46': ['dnQualifier', 'dnQualifier'],
  '2.5.4.65': ['pseudonym', 'pseudonym'],
  '2.5.4.97': ['organizationIdentifier', 'organizationIdentifier'],
  '1.2.840.113549.1.9.1': ['emailAddress', 'emailAddress'],
  '1.2.840.113549.1.9.2': ['unstructuredName', 'unstructuredName'],
  '0.9.2342.19200300.100.1.1': ['UID', 'userId'],
  '0.9.2342.19200300.100.1.25': ['DC', 'domainComponent'],
  '1.3.6.1.4.1.311.60.2.1.1': ['jurisdictionL', 'jurisdictionLocalityName'],
  '1.3.6.1.4.1.311.60.2.1.2': ['jurisdictionST', 'jurisdictionStateOrProvinceName'],
  '1.3.6.1.4.1.311.60.2.1.3': ['jurisdictionC', 'jurisdictionCountryName'],
  // public keys and signatures
  '1.2.840.113549.1.1.1': ['rsaEncryption', 'rsaEncryption'],
  '1.2.840.113549.1.1.4': ['RSA-MD5', 'md5WithRSAEncryption'],
  '1.2.840.113549.1.1.5': ['RSA-SHA1', 'sha1WithRSAEncryption'],
  '1.2.840.113549.1.1.10': ['RSASSA-PSS', 'rsassaPss'],
  '1.2.840.113549.1.1.11': ['RSA-SHA256', 'sha256WithRSAEncryption'],
  '1.2.840.113549.1.1.12': ['RSA-SHA384', 'sha384WithRSAEncryption'],
  '1.2.840.113549.1.1.13': ['RSA-SHA512', 'sha512WithRSAEncryption'],
  '1.2.840.113549.1.1.14': ['RSA-SHA224', 'sha224WithRSAEncryption'],
  '1.2.840.10045.2.1': ['id-ecPublicKey', 'id-ecPublicKey'],
  '1.2.840.10045.4.1': ['ecdsa-with-SHA1', 'ecdsa-with-SHA1'],
  '1.2.840.10045.4.3.1': ['ecdsa-with-SHA224', 'ecdsa-with-SHA224'],
  '1.2.840.10045.4.3.2': ['ecdsa-with-SHA256', 'ecdsa-with-SHA256'],
  '1.2.840.10045.4.3.3': ['ecdsa-with-SHA384', 'ecdsa-with-SHA384'],
  '1.2.840.10045.4.3.4': ['ecdsa-with-SHA512', 'ecdsa-with-SHA512'],
  '1.3.101.112': ['ED25519', 'ED25519'],
  '1.3.101.113': ['ED448', 'ED448'],
  '1.2.840.10040.4.1': ['DSA', 'dsaEncryption'],
  '1.2.840.10040.4.3': ['DSA-SHA1', 'dsaWithSHA1'],
  '2.16.840.1.101.3.4.3.2': ['dsa_with_SHA256', 'dsa_with_SHA256'],
  '1.2.840.10045.1.1': ['prime-field', 'prime-field'],
  '1.2.840.10045.1.2': ['characteristic-two-field', 'characteristic-two-field'],
  // extensions and their contents
  '2.5.29.14': ['subjectKeyIdentifier', 'X509v3 Subject Key Identifier'],
  '2.5.29.15': ['keyUsage', 'X509v3 Key Usage'],
  '2.5.29.17': ['subjectAltName', 'X509v3 Subject Alternative Name'],
  '2.5.29.18': ['issuerAltName', 'X509v3 Issuer Alternative Name'],
  '2.5.29.19': ['basicConstraints', 'X509v3 Basic Constraints'],
  '2.5.29.30': ['nameConstraints', 'X509v3 Name Constraints'],
  '2.5.29.31': ['crlDistributionPoints', 'X509v3 CRL Distribution Points'],
  '2.5.29.32': ['certificatePolicies', 'X509v3 Certificate Policies'],
  '2.5.29.32.0': ['anyPolicy', 'X509v3 Any Policy'],
  '2.5.29.35': ['authorityKeyIdentifier', 'X509v3 Authority Key Identifier'],
  '2.5.29.36': ['policyConstraints', 'X509v3 Policy Constraints'],
  '2.5.29.37': ['extendedKeyUsage', 'X509v3 Extended Key Usage'],
  '2.5.29.54': ['inhibitAnyPolicy', 'X509v3 Inhibit Any Policy'],
  '2.5.29.37.0': ['anyExtendedKeyUsage', 'Any Extended Key Usage'],
  '1.3.6.1.5.5.7.1.1': ['authorityInfoAccess', 'Authority Information Access'],
  '1.3.6.1.5.5.7.1.24': ['tlsfeature', 'TLS Feature'],
  '1.3.6.1.4.1.11129.2.4.2': ['ct_precert_scts', 'CT Precertificate SCTs'],
  '1.3.6.1.4.1.11129.2.4.3': ['ct_precert_poison', 'CT Precertificate Poison'],
  '2.16.840.1.113730.1.1': ['nsCertType', 'Netscape Cert Type'],
  '2.16.840.1.113730.1.13': ['nsComment', 'Netscape Comment'],
  '1.3.6.1.5.5.7.3.1': ['serverAuth', 'TLS Web Server Authentication'],
  '1.3.6.1.5.5.7.3.2': ['clientAuth', 'TLS Web Client Authentication'],
  '1.3.6.1.5.5.7.3.3': ['codeSigning', 'Code Signing'],
  '1.3.6.1.5.5.7.3.4': ['emailProtection', 'E-mail Protection'],
  '1.3.6.1.5.5.7.3.8': ['timeStamping', 'Time Stamping'],
  '1.3.6.1.5.5.7.3.9': ['OCSPSigning', 'OCSP Signing'],
  '1.3.6.1.5.5.7.48.1': ['OCSP', 'OCSP'],
  '1.3.6.1.5.5.7.48.2': ['caIssuers', 'CA Issuers'],
  '1.3.6.1.5.5.7.2.1': ['id-qt-cps', 'Policy Qualifier CPS'],
  '1.3.6.1.5.5.7.2.2': ['id-qt-unotice', 'Policy Qualifier User Notice'],
};

/** `i2t_ASN1_OBJECT` / `i2a_ASN1_OBJECT`: the long name when OpenSSL knows the OID, else the dotted form. */
export const longName = (oid: string): string => OIDS[oid]?.[1] ?? oid;

/** Bytes as OpenSSL writes them into text (one character per octet). */
export const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/**
 * The octets X509_NAME_oneline prints for an attribute value: the content, or the whole element for
 * a SEQUENCE. (Its GeneralString special case never applies: OpenSSL refuses such names.)
 */
const valueBytes = (der: Buffer, value: Tlv): Buffer =>
  der.subarray(value.tag === 0x30 ? value.start : value.body, value.end);

function escapeValue(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    if (b < 0x20 || b > 0x7e) out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += b === 0x2f || b === 0x2b ? `\\${String.fromCharCode(b)}` : String.fromCharCode(b);
  }
  return out;
}

/**
 * OpenSSL's `X509_NAME_oneline` (Ruby's `X509::Name#to_s`, GitLab's `subject`): `/C=NL/O=Acme/CN=x`,
 * `+` between the attributes of one RDN, `/` and `+` escaped, other octets outside ' '..'~' as `\xHH`.
 * With `max` (a fixed buffer, as in the SAN's DirName), attributes that do not fit are left out.
 * null when the name does not decode.
 */
export function onelineName(der: Buffer, name: Tlv, max = Infinity): string | null {
  let out = '';
  for (const rdn of childrenOf(der, name) ?? [null]) {
    const atvs = rdn && rdn.tag === 0x31 ? childrenOf(der, rdn) : null;
    if (!atvs) return null;
    for (const [n, atv] of atvs.entries()) {
      const parts = atv.tag === 0x30 ? childrenOf(der, atv) : null;
      const oid = parts?.length === 2 ? oidText(der, parts[0]) : null;
      if (!parts || !oid) return null;
      const entry = `${n === 0 ? '/' : '+'}${OIDS[oid]?.[0] ?? oid}=${escapeValue(valueBytes(der, parts[1]))}`;
      if (out.length + entry.length > max) return out;
      out += entry;
    }
  }
  return out;
}

/**
 * `X509_NAME_print` (the `Issuer:`/`Subject:` lines of `X509_print`): the one-line form without its
 * first slash, each `/` followed by one or two capitals and `=` turned into `, ` (so
 * `/emailAddress=` stays, as in OpenSSL's output).
 */
export function compatName(oneline: string): string {
  if (oneline === '') return '';
  const s = oneline.slice(1);
  const isUpper = (c: string | undefined) => c !== undefined && c >= 'A' && c <= 'Z';
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i += 1) {
    if (s[i] === '/' && isUpper(s[i + 1]) && (s[i + 2] === '=' || (isUpper(s[i + 2]) && s[i + 3] === '='))) {
      out += `${s.slice(from, i)}, `;
      from = i + 1;
    }
  }
  return out + s.slice(from);
}
