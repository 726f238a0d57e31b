import { childrenOf, contentOf, oidText, wholeTlv, type Tlv } from './pages-der';

/**
 * The fields of an X.509 certificate read from its DER (RFC 5280 §4.1), for certificates OpenSSL
 * has already parsed: what the text dump, the subject and the chain rules need. null when the
 * structure is not the one expected; never throws.
 */
export interface AlgorithmId {
  oid: string;
  /** The parameters element, if any (e.g. NULL, a curve OID, explicit EC parameters). */
  params: Tlv | null;
}

export interface CertExtension {
  oid: string;
  critical: boolean;
  /** extnValue's content (the extension's own DER). */
  value: Buffer;
}

export interface CertFields {
  der: Buffer;
  /** 0 for v1 … 2 for v3; -1 when the INTEGER does not fit. */
  version: number;
  /** The serial number INTEGER's content octets (two's complement, big-endian). */
  serial: Buffer;
  tbsSigAlg: AlgorithmId;
  issuer: Tlv;
  subject: Tlv;
  spkiAlg: AlgorithmId;
  /** The subjectPublicKey BIT STRING's bits (unused-bits octet removed). */
  publicKey: Buffer;
  issuerUid: Buffer | null;
  subjectUid: Buffer | null;
  extensions: CertExtension[];
  sigAlg: AlgorithmId;
  signature: Buffer;
}

function algorithmId(der: Buffer, tlv: Tlv): AlgorithmId | null {
  const parts = tlv.tag === 0x30 ? childrenOf(der, tlv) : null;
  const oid = parts?.length ? oidText(der, parts[0]) : null;
  if (!parts || !oid || parts.length > 2) return null;
  return { oid, params: parts[1] ?? null };
}

/** A BIT STRING's bits without the unused-bits octet (OpenSSL keeps the octets as they are). */
function bits(der: Buffer, tlv: Tlv): Buffer | null {
  if (tlv.end === tlv.body || der[tlv.body] > 7) return null;
  return der.subarray(tlv.body + 1, tlv.end);
}

function smallInt(der: Buffer, tlv: Tlv): number {
  if (tlv.tag !== 0x02 || tlv.end === tlv.body || tlv.end - tlv.body > 4) return -1;
  return der.readIntBE(tlv.body, tlv.end - tlv.body);
}

function extensionsOf(der: Buffer, wrapper: Tlv): CertExtension[] | null {
  const list = childrenOf(der, wrapper);
  if (!list || list.length !== 1 || list[0].tag !== 0x30) return null;
  const out: CertExtension[] = [];
  for (const ext of childrenOf(der, list[0]) ?? [null]) {
    const parts = ext && ext.tag === 0x30 ? childrenOf(der, ext) : null;
    if (!parts || parts.length < 2 || parts.length > 3) return null;
    const oid = oidText(der, parts[0]);
    const critical = parts.length === 3 ? parts[1] : null;
    const value = parts[parts.length - 1];
    if (!oid || value.tag !== 0x04 || (critical && (critical.tag !== 0x01 || critical.end - critical.body !== 1)))
      return null;
    out.push({ oid, critical: critical !== null && der[critical.body] !== 0, value: contentOf(der, value) });
  }
  return out;
}

export function readCertificate(der: Buffer): CertFields | null {
  const cert = wholeTlv(der);
  const outer = cert && cert.tag === 0x30 ? childrenOf(der, cert) : null;
  if (!outer || outer.length !== 3 || outer[0].tag !== 0x30 || outer[2].tag !== 0x03) return null;
  const tbs = childrenOf(der, outer[0]);
  const sigAlg = algorithmId(der, outer[1]);
  const signature = bits(der, outer[2]);
  if (!tbs || !sigAlg || !signature) return null;
  let i = 0;
  let version = 0;
  if (tbs[0]?.tag === 0xa0) {
    const inner = childrenOf(der, tbs[0]);
    if (!inner || inner.length !== 1) return null;
    version = smallInt(der, inner[0]);
    i += 1;
  }
  const [serial, alg, issuer, validity, subject, spki] = tbs.slice(i, i + 6);
  if (
    !spki ||
    serial.tag !== 0x02 ||
    issuer.tag !== 0x30 ||
    validity.tag !== 0x30 ||
    subject.tag !== 0x30 ||
    spki.tag !== 0x30
  )
    return null;
  const tbsSigAlg = algorithmId(der, alg);
  const spkiParts = childrenOf(der, spki);
  const spkiAlg = spkiParts?.length === 2 ? algorithmId(der, spkiParts[0]) : null;
  const publicKey = spkiParts?.length === 2 && spkiParts[1].tag === 0x03 ? bits(der, spkiParts[1]) : null;
  if (!tbsSigAlg || !spkiAlg || !publicKey) return null;
  const fields: CertFields = {
    der,
    version,
    serial: contentOf(der, serial),
    tbsSigAlg,
    issuer,
    subject,
    spkiAlg,
    publicKey,
    issuerUid: null,
    subjectUid: null,
    extensions: [],
    sigAlg,
    signature,
  };
  for (const rest of tbs.slice(i + 6)) {
    if (rest.tag === 0x81 && !fields.issuerUid) fields.issuerUid = bits(der, rest);
    else if (rest.tag === 0x82 && !fields.subjectUid) fields.subjectUid = bits(der, rest);
    else if (rest.tag === 0xa3) {
      const exts = extensionsOf(der, rest);
      if (!exts) return null;
      fields.extensions = exts;
    } else return null;
  }
  return fields;
}

/** The cA flag of basicConstraints; null without the extension (or when it does not decode). */
export function basicConstraintsCa(fields: CertFields): boolean | null {
  const ext = fields.extensions.find((e) => e.oid === '2.5.29.19');
  if (!ext) return null;
  const seq = wholeTlv(ext.value);
  const parts = seq && seq.tag === 0x30 ? childrenOf(ext.value, seq) : null;
  if (!parts) return null;
  const flag = parts[0]?.tag === 0x01 ? parts[0] : null;
  return flag !== null && flag.end - flag.body === 1 && ext.value[flag.body] !== 0;
}
