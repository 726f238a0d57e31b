/**
 * GPG public keys generated once with GnuPG 2.2.40 (`gpg --batch --quick-gen-key`, then `--quick-add-key`
 * for an encryption subkey; public keys only) and their fingerprints and key ids as `gpg --with-colons`
 * printed them: test fixtures for the GPG keys API (never imported from src/).
 */
/** RSA 2048 primary key, RSA 2048 encryption subkey: old-format packets with two-octet lengths. */
export const ALICE = {
  fingerprint: 'DF10308F7C39FF05C40FD0F434E4972F303031FD',
  keyId: '34E4972F303031FD',
  key: `-----BEGIN PGP PUBLIC KEY BLOCK-----

mQENBGsG+VMBCACsbaFafUeUmzbIQUNmR8phMcIBAfQ0YbwVMOr6VEMi27EoMa6K
zDKaoR+QWDB6ug9vWneF0h1rqLIjWlEJB6BDqoXuxozElmqx514YHY2gxS7QBvS+
gvZTOo4Jh5+raxm/2puujhD+eJC7krR65k02Sv/uFgeknZb9m9itRq/e/7Utjz32
JpM3ArhPGa5BbVuHNNOJvdlznha94YEheIpKV/FdhxQl6NmcoZwTeCDKHX6y7iGd
BMDHC2hj0ILydudnmadH9+xmir6O59sS2Qhu0Z1CWCpgdHlkbmUBO1X+JbBEIfmI
5LkM3M6KYBvPfeyPBQRa8Y8EnF8TeUxqTG/vABEBAAG0IUFsaWNlIEV4YW1wbGUg
PGFsaWNlQGV4YW1wbGUuY29tPokBTgQTAQoAOBYhBN8QMI98Of8FxA/Q9DTkly8w
MDH9BQJrBvlTAhsDBQsJCAcCBhUKCQgLAgQWAgMBAh4BAheAAAoJEDTkly8wMDH9
WL8H/jKt8tP7ajBjoQmTsG1Aync41GkZs3o7EF8htcU8/WDkNhH0AbNpICWEpjnN
YTAY0R0X4Notuh9NFPKxE/NxbhN4j4aSBrOwJZoEl/TNFXnwWPGZ31ZElOknIzvz
SnXeuABtinLfeuEOdAJVOZ0BIT0bVtS0NVIsdmPXcAmQrf1vU1UiYzQoz6/uUAsu
ipgyr9t8yLYEU6+CQrZcpuqJe/ClDHquTXlLjl/Dczp9ydkFYGJDJEsH+xbVn6UT
n65Tg6cNcWimSGHO47Q5ciby2JrfK4iMmJl5JhkOUW4iO2USWrTkGPaqShjRqg5y
rn4DK7CQDn4FwMSxApvz8z10O065AQ0Eawb5VgEIAOPn2nVP9kS4EzK7xoXDIMl7
VL0wTa7B7JsqXDWCvVYf5qSoMy6E21DxTqcz+YQzWaltAqhsxLgXNFPVQwhraOIY
+mn7gRsEjGaXy1dSWbwljCmRukG4vCNjFacQEfMPTuHwfy64bG/Ick+9ccaF6YeC
1dh/HMuM0XN/4VD4U2BfBdmJEH7G902nDQkcTcvacw2Vy19JdKuLqj6AyYKG4L16
zIYL5Bx9A4wHFT7W1Btbh5bq9J9SgyrNMTmrFHzHE6lAi72KbRk0arBSSsICKv3e
8QKyE6dHeYYpTePNY/1CPJ9d59CTF2i9BCBOWNZlJVVxaFVW38ssY6hP+9+pYUEA
EQEAAYkBNgQYAQoAIBYhBN8QMI98Of8FxA/Q9DTkly8wMDH9BQJrBvlWAhsMAAoJ
EDTkly8wMDH9TSAH/iUkIkbjPqBRRiCyZqAdd+33JU7lSTuiedgfnSgNESYSoTey
InJRAElz6hZDd0sWqfOZy7xxJ+CfgXX/zqkRBrfsFBVshwj3/bZNEDFM/Tzkv5MI
0c5kJp6akoDUUMtZfvLTtsLQ0cpXEkYPckfR0zJMo90OeOL69KO69JTqCDh5B6lV
4PDBbYZKWNpwdnVliYP82xZ4voa7kvpuToWdl8SZGPVlX8AyTCEMYQ3QMVfD6Fx4
VoZ6lCIqMigOPSjUXwMtif8jI9lK+67f5mVw/p1G7sqnDptGmtcKdN2Njtc3JrzA
r75D8HKJpL4cEA1KXJzVHyHRgmw4Sa+wzYssqGI=
=rNST
-----END PGP PUBLIC KEY BLOCK-----`,
};
/** Ed25519 primary key, Curve25519 encryption subkey: old-format packets with one-octet lengths. */
export const BOB = {
  fingerprint: 'E8271809461F1F36FC14CA3CE14C25A049CB80F9',
  keyId: 'E14C25A049CB80F9',
  key: `-----BEGIN PGP PUBLIC KEY BLOCK-----

mDMEawb5UxYJKwYBBAHaRw8BAQdAA4XtKiocqFPIG+Xyay95Y4McJ7jLJqZ/xQTZ
crkCSoy0HUJvYiBFeGFtcGxlIDxib2JAZXhhbXBsZS5jb20+iJAEExYIADgWIQTo
JxgJRh8fNvwUyjzhTCWgScuA+QUCawb5UwIbAwULCQgHAgYVCgkICwIEFgIDAQIe
AQIXgAAKCRDhTCWgScuA+YFiAQDnD73qW1jKSzjz7LIJfMBn7aR4cTXx70yOhs/R
6DS4TAD/V6wJxU6//SYH1x90Ko/OY81z2Tmwmht0HpqbddwohQG4OARrBvlXEgor
BgEEAZdVAQUBAQdAq3Cxnn9DGwtjfxdPitFHH9kw4rGAMAiP9V0PPS1oWToDAQgH
iHgEGBYIACAWIQToJxgJRh8fNvwUyjzhTCWgScuA+QUCawb5VwIbDAAKCRDhTCWg
ScuA+RRQAP9Ad5YUZIeksOtmOe4G69FxLOll4bae+hSZ1xqfKxYAIwEAjf3QnlqP
iA4OHF91fsdZP0GCO0lPvxtbHYmEZX/JUQE=
=FV+2
-----END PGP PUBLIC KEY BLOCK-----`,
};
/** NIST P-256 (ECDSA) primary key, no subkey. */
export const CAROL = {
  fingerprint: 'E00865FC0FB173EC0AE77AE52F72F482C21BF3D9',
  keyId: '2F72F482C21BF3D9',
  key: `-----BEGIN PGP PUBLIC KEY BLOCK-----

mFIEawb5VxMIKoZIzj0DAQcCAwSPqvI9UakzaWvKGlLIPMfiSRUqkXs5CH4/sGAt
OOpuMy9o6C7nJkBbS8H3vQCtvZPAuZ/ssPFs08258i4yCdphtCFDYXJvbCBFeGFt
cGxlIDxjYXJvbEBleGFtcGxlLmNvbT6IkAQTEwgAOBYhBOAIZfwPsXPsCud65S9y
9ILCG/PZBQJrBvlXAhsDBQsJCAcCBhUKCQgLAgQWAgMBAh4BAheAAAoJEC9y9ILC
G/PZHGsBAP6E6xazWjID07GybGKtJFZ9CM5RltsDqC5psXklQ1+yAQCvlR8L5Adl
+DjNy//sdL1dmhpG4KeXnAQdLBxpREM2WA==
=U99u
-----END PGP PUBLIC KEY BLOCK-----`,
};

/** RFC 4880 §6.1 CRC-24 of the armor checksum, bitwise (src/ has a table-driven one: the tests check it against this). */
export function crc24(data: Uint8Array): number {
  let crc = 0xb704ce;
  for (const byte of data) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

/** An old-format packet with a four-octet length (§4.2.1). */
function packet(tag: number, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 0x80 | (tag << 2) | 2;
  header.writeUInt32BE(body.length, 1);
  return Buffer.concat([header, body]);
}

/**
 * A key block the service accepts (a v4 RSA primary key with random modulus, so a new fingerprint
 * each time, and one user id carrying a signature packet) whose armored text is `chars` characters
 * long, give or take a line: the user id is padded. Not a key gpg would verify (the signature is
 * filler); the service checks structure, as documented in docs/rest.md#gpg-keys.
 */
export function syntheticGpgKey(chars: number): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  const n = randomBytes(256);
  n[0] |= 0x80;
  const e = Buffer.from([0x00, 0x11, 0x01, 0x00, 0x01]);
  const keyBody = Buffer.concat([Buffer.from([4, 0x6b, 0x06, 0xf9, 0x53, 1, 0x08, 0x00]), n, e]);
  const overhead = 5 + keyBody.length + 5 + 5 + 16 + 200;
  const rawBudget = Math.floor((((chars - 120) * 3) / 4) * (64 / 65)) - overhead;
  const userId = Buffer.from(`Synthetic ${'x'.repeat(Math.max(1, rawBudget))} <s@example.com>`);
  const data = Buffer.concat([packet(6, keyBody), packet(13, userId), packet(2, randomBytes(16))]);
  const body = data.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  const crc = Buffer.from([(crc24(data) >> 16) & 0xff, (crc24(data) >> 8) & 0xff, crc24(data) & 0xff]).toString(
    'base64',
  );
  return `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${body}\n=${crc}\n-----END PGP PUBLIC KEY BLOCK-----`;
}
