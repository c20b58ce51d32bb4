import { generateKeyPairSync, createPublicKey, publicDecrypt, constants } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { androidPublicKey, loadOrCreateAdbKey } from './adb-key';

const le = (bytes: Buffer): bigint => BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);

describe("this computer's debugging key", () => {
  it('encodes the public key as Android does: 64 words, n0inv, n and R² mod n little-endian, the exponent', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 65537 });
    const encoded = androidPublicKey(publicKey);
    expect(encoded).toHaveLength(524);
    expect(encoded.readUInt32LE(0)).toBe(64);
    const n = le(encoded.subarray(8, 264));
    expect(n.toString(16)).toBe(Buffer.from(publicKey.export({ format: 'jwk' }).n as string, 'base64url').toString('hex').replace(/^0+/, ''));
    // n0inv · n ≡ −1 (mod 2³²)
    expect((BigInt(encoded.readUInt32LE(4)) * n) % (1n << 32n)).toBe((1n << 32n) - 1n);
    expect(le(encoded.subarray(264, 520))).toBe((1n << 4096n) % n);
    expect(encoded.readUInt32LE(520)).toBe(65537);
  });

  it('is made once with mode 0600 and signs a token as RSA_sign(NID_sha1) does: DigestInfo(SHA-1) around the raw token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apex-key-'));
    try {
      const key = await loadOrCreateAdbKey(join(dir, 'adb'));
      expect(statSync(join(dir, 'adb', 'adbkey')).mode & 0o777).toBe(0o600);
      const token = Buffer.alloc(20, 7);
      const signature = key.sign(token) as Buffer;
      expect(signature).toHaveLength(256);
      const modulus = Buffer.from(key.publicKey.split(' ')[0], 'base64').subarray(8, 264);
      const pub = createPublicKey({ key: { kty: 'RSA', n: Buffer.from(modulus).reverse().toString('base64url'), e: 'AQAB' }, format: 'jwk' });
      const recovered = publicDecrypt({ key: pub, padding: constants.RSA_PKCS1_PADDING }, signature);
      expect(recovered.toString('hex')).toBe(`3021300906052b0e03021a05000414${token.toString('hex')}`);
      expect(key.sign(Buffer.alloc(19))).toBeUndefined();
      expect((await loadOrCreateAdbKey(join(dir, 'adb'))).publicKey).toBe(key.publicKey);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
