import { constants, createPublicKey, publicDecrypt, randomBytes, type KeyObject } from 'node:crypto';

/*
 * The device side of ADB authentication (AOSP daemon/auth.cpp, adb.cpp `handle_packet` A_AUTH): after the
 * host's CNXN a secure phone (`ro.adb.secure=1`) sends AUTH(TOKEN, 20 random bytes); the host answers
 * AUTH(SIGNATURE) — RSA_sign(NID_sha1, token) — which must verify against a key in adb_keys, else a new token is
 * sent; or AUTH(RSAPUBLICKEY, "base64key user@host\0"), which shows the "Allow USB debugging?" prompt.
 */

export const AUTH_TOKEN = 1;
export const AUTH_SIGNATURE = 2;
export const AUTH_RSAPUBLICKEY = 3;
export const TOKEN_SIZE = 20;

/** `ANDROID_PUBKEY_ENCODED_SIZE`: u32 words, u32 n0inv, n[256], rr[256], u32 e (little-endian). */
const ENCODED_SIZE = 524;
const MODULUS_BYTES = 256;
const SHA1_DIGEST_INFO = Buffer.from('3021300906052b0e03021a05000414', 'hex');

export interface AdbdAuth {
  /** The keys this phone trusts, as adb_keys lines (`base64key user@host`); keys the prompt allows are added. */
  trustedKeys: Set<string>;
  /** The phone's prompt for an unknown key: true allows it (and remembers it, as "Always allow" does). */
  allow?: (publicKey: string) => boolean | Promise<boolean>;
}

/** Android's binary public key (libcrypto_utils `android_pubkey_decode`) → a Node key; undefined when malformed. */
export function decodeAndroidPublicKey(line: string): KeyObject | undefined {
  const bytes = Buffer.from(line.split(/[ \t]/)[0] ?? '', 'base64');
  if (bytes.length !== ENCODED_SIZE || bytes.readUInt32LE(0) !== MODULUS_BYTES / 4) return undefined;
  const n = Buffer.from(bytes.subarray(8, 8 + MODULUS_BYTES)).reverse();
  const e = Buffer.alloc(4);
  e.writeUInt32BE(bytes.readUInt32LE(8 + 2 * MODULUS_BYTES));
  try {
    return createPublicKey({ key: { kty: 'RSA', n: n.toString('base64url'), e: e.subarray(e.findIndex((b) => b !== 0)).toString('base64url') }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** Whether `signature` is RSA_sign(NID_sha1, token) by one of the trusted keys (`adbd_auth_verify`). */
export function verifySignature(trusted: Iterable<string>, token: Buffer, signature: Buffer): boolean {
  const expected = Buffer.concat([SHA1_DIGEST_INFO, token]);
  for (const line of trusted) {
    const key = decodeAndroidPublicKey(line);
    if (!key) continue;
    try {
      if (publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, signature).equals(expected)) return true;
    } catch {
      /* not this key */
    }
  }
  return false;
}

export function newToken(): Buffer {
  return randomBytes(TOKEN_SIZE);
}
