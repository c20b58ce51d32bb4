import { createPrivateKey, generateKeyPair, privateEncrypt, constants, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';

/*
 * This computer's debugging key, as adb keeps its own (`~/.android/adbkey`): an RSA-2048 private key in PEM
 * (PKCS#8), file mode 0600, and `adbkey.pub` beside it in Android's public-key format. A phone that requires
 * authentication sends a 20-byte token; we answer RSA_sign(NID_sha1, token) — PKCS#1 v1.5 with the SHA-1
 * DigestInfo around the raw token, which is never hashed (AOSP client/auth.cpp `adb_auth_sign`). A phone that
 * does not know the key gets the public key and shows its "Allow debugging?" prompt (`send_auth_publickey`).
 * The private key never leaves this file: no log line, error or response carries it.
 */

/** ASN.1 DigestInfo prefix of a SHA-1 digest (RFC 8017 §9.2 note 1). */
const SHA1_DIGEST_INFO = Buffer.from('3021300906052b0e03021a05000414', 'hex');
/** `ANDROID_PUBKEY_MODULUS_SIZE`: adb keys are RSA-2048. */
const MODULUS_BYTES = 256;

export const TOKEN_SIZE = 20;

export interface AdbKey {
  /** The token signed as adb does; undefined for a token that is not 20 bytes (adb refuses those too). */
  sign(token: Buffer): Buffer | undefined;
  /** `base64(android_pubkey) user@host`, what AUTH(RSAPUBLICKEY) carries (without its NUL) and adbkey.pub holds. */
  readonly publicKey: string;
}

function littleEndian(value: bigint, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let v = value;
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function bigFromBase64Url(text: string): bigint {
  return BigInt(`0x${Buffer.from(text, 'base64url').toString('hex') || '0'}`);
}

function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/**
 * Android's binary public key (libcrypto_utils `android_pubkey_encode`), little-endian throughout:
 * `u32 modulus_size_words (64), u32 n0inv (-1/n mod 2^32), u8 n[256], u8 rr[256] (2^4096 mod n), u32 e`.
 */
export function androidPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (!jwk.n || !jwk.e) throw new Error('not an RSA key');
  const n = bigFromBase64Url(jwk.n);
  const e = bigFromBase64Url(jwk.e);
  const word = 1n << 32n;
  const n0inv = (word - modInverse(n % word, word)) % word;
  const rr = (1n << BigInt(MODULUS_BYTES * 8 * 2)) % n;
  const head = Buffer.alloc(8);
  head.writeUInt32LE(MODULUS_BYTES / 4, 0);
  head.writeUInt32LE(Number(n0inv), 4);
  const exponent = Buffer.alloc(4);
  exponent.writeUInt32LE(Number(e), 0);
  return Buffer.concat([head, littleEndian(n, MODULUS_BYTES), littleEndian(rr, MODULUS_BYTES), exponent]);
}

/** What a phone calls this computer beside the key (its prompt shows it): `user@host`, as adb does. */
function keyComment(): string {
  let user = 'apex';
  try {
    user = userInfo().username || user;
  } catch {
    /* no user entry (some containers) */
  }
  return `${user}@${hostname() || 'localhost'}`;
}

function keyFrom(pem: string): AdbKey {
  const privateKey = createPrivateKey(pem);
  const publicKey = `${androidPublicKey(privateKey).toString('base64')} ${keyComment()}`;
  return {
    publicKey,
    sign: (token) =>
      token.length === TOKEN_SIZE
        ? privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA1_DIGEST_INFO, token]))
        : undefined,
  };
}

const loading = new Map<string, Promise<AdbKey>>();

/**
 * The key in `dir` (`adbkey`, `adbkey.pub`), made on first use: generated off the event loop, written with mode
 * 0600 through a temporary file, so a crash never leaves half a key. One load per directory per process.
 */
export function loadOrCreateAdbKey(dir: string): Promise<AdbKey> {
  let pending = loading.get(dir);
  if (!pending) {
    pending = (async () => {
      const file = join(dir, 'adbkey');
      try {
        return keyFrom(await readFile(file, 'utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const pem = await new Promise<string>((resolve, reject) =>
        generateKeyPair('rsa', { modulusLength: 2048, publicExponent: 65537 }, (error, _pub, priv) =>
          error ? reject(error) : resolve(priv.export({ format: 'pem', type: 'pkcs8' }).toString()),
        ),
      );
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, pem, { mode: 0o600 });
      await chmod(temporary, 0o600); // whatever the umask
      await rename(temporary, file);
      const key = keyFrom(pem);
      await writeFile(join(dir, 'adbkey.pub'), `${key.publicKey}\n`, { mode: 0o644 });
      return key;
    })();
    loading.set(dir, pending);
    pending.catch(() => loading.delete(dir));
  }
  return pending;
}
