import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bufferSource, declaredSize, fileSource, readZipEntry, ZipError, zipEntries, type ByteSource, type ZipEntry } from './index';
import { zipFiles } from './testing';

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ZipError)) throw new Error(`expected a ZipError, got ${String(error)}`);
  return error.reason;
}

async function only(source: ByteSource, maxBytes = 1024 * 1024): Promise<Buffer> {
  const [entry] = await zipEntries(source);
  if (!entry) throw new Error('no entry');
  return readZipEntry(source, entry, maxBytes, 'Info.plist');
}

describe('the zip reader', () => {
  it('lists entries and reads stored and deflated ones, from a buffer and from a file', async () => {
    const archive = zipFiles([
      { name: 'Payload/Ünï.app/Info.plist', data: 'plist '.repeat(100) },
      { name: 'Payload/Ünï.app/raw', data: Buffer.from([1, 2, 3]), method: 'store' },
    ]);
    const source = bufferSource(archive);
    const entries = await zipEntries(source);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['Payload/Ünï.app/Info.plist', 8, 600],
      ['Payload/Ünï.app/raw', 0, 3],
    ]);
    expect(declaredSize(entries)).toBe(603);
    const [plist, raw] = entries as [ZipEntry, ZipEntry];
    expect((await readZipEntry(source, plist, 600, 'Info.plist')).toString()).toBe('plist '.repeat(100));
    expect([...(await readZipEntry(source, raw, 3, 'raw'))]).toEqual([1, 2, 3]);

    const dir = await mkdtemp(path.join(tmpdir(), 'apex-zip-'));
    try {
      await writeFile(path.join(dir, 'a.ipa'), archive);
      const file = await open(path.join(dir, 'a.ipa'), 'r');
      try {
        expect((await only(fileSource(file, archive.length))).toString()).toBe('plist '.repeat(100));
      } finally {
        await file.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not a zip archive, and one cut short', async () => {
    expect(await refusal(zipEntries(bufferSource(Buffer.from('this is a text file named .ipa\n'))))).toMatch(/not a zip archive/);
    expect(await refusal(zipEntries(bufferSource(Buffer.alloc(3))))).toMatch(/not a zip archive/);
    const archive = zipFiles([{ name: 'a', data: 'x'.repeat(1000), method: 'store' }]);
    // Keep the end record but drop the start: the directory points at bytes that are not there.
    const cut = archive.subarray(500);
    expect(await refusal(only(bufferSource(cut)))).toMatch(/cut short|damaged/);
  });

  it('refuses a zip bomb by its declared size before inflating anything', async () => {
    const bomb = zipFiles([{ name: 'a', data: 'x', declaredSize: 0xfffffff0 }]);
    expect(await refusal(only(bufferSource(bomb), 1024))).toBe('its Info.plist is larger than 1024 bytes');
  });

  it('stops inflating an entry that lies about its size', async () => {
    const liar = zipFiles([{ name: 'a', data: Buffer.alloc(5_000_000, 0x20), declaredSize: 100 }]);
    expect(await refusal(only(bufferSource(liar)))).toMatch(/does not unpack/);
    const shorter = zipFiles([{ name: 'a', data: 'abc', method: 'store', declaredSize: 2 }]);
    expect(await refusal(only(bufferSource(shorter)))).toMatch(/does not unpack to the size it declares/);
  });

  it('refuses ZIP64, encrypted entries and unknown compression methods', async () => {
    const zip64 = zipFiles([{ name: 'a', data: 'x' }]);
    zip64.writeUInt32LE(0xffffffff, zip64.length - 6); // the end record's directory offset: "see the ZIP64 record"
    expect(await refusal(zipEntries(bufferSource(zip64)))).toMatch(/ZIP64/);

    const encrypted = zipFiles([{ name: 'a', data: 'x' }]);
    const central = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    encrypted.writeUInt16LE(encrypted.readUInt16LE(central + 8) | 0x1, central + 8);
    expect(await refusal(zipEntries(bufferSource(encrypted)))).toMatch(/encrypted/);

    const bzip = zipFiles([{ name: 'a', data: 'x', method: 'store' }]);
    const bzipCentral = bzip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bzip.writeUInt16LE(12, bzipCentral + 10);
    expect(await refusal(only(bufferSource(bzip)))).toMatch(/compression method .* \(12\)/);
  });
});
