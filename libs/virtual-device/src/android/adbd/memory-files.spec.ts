import { MemoryFiles } from './memory-files';

describe('MemoryFiles', () => {
  const files = () => new MemoryFiles({ now: () => 1_000 });

  it('creates missing parent directories on write, with modes and mtimes', () => {
    const fs = files();
    fs.write('/data/local/tmp/a.txt', Buffer.from('hi'), 0o644, 2_000);
    expect(fs.stat('/data/local/tmp/a.txt')).toEqual({ name: 'a.txt', mode: 0o100644, size: 2, mtime: 2_000 });
    expect(fs.stat('/data/local')).toEqual({ name: 'local', mode: 0o40775, size: 4096, mtime: 2_000 });
    expect(fs.stat('/')).toMatchObject({ name: '/', mode: 0o40755 });
    expect(Buffer.from(fs.read('/data//local/./tmp/../tmp/a.txt') ?? []).toString()).toBe('hi');
  });

  it('keeps its own copy of what was written', () => {
    const fs = files();
    const data = Buffer.from('abc');
    fs.write('/f', data, 0o600, 1);
    data[0] = 0x7a;
    expect(Buffer.from(fs.read('/f') ?? []).toString()).toBe('abc');
  });

  it('lists a directory sorted, and nothing for a file or a missing path', () => {
    const fs = files();
    fs.write('/sdcard/b', Buffer.alloc(1), 0o644, 1);
    fs.write('/sdcard/a', Buffer.alloc(3), 0o644, 1);
    fs.mkdir('/sdcard/DCIM');
    expect(fs.list('/sdcard')?.map((e) => e.name)).toEqual(['DCIM', 'a', 'b']);
    expect(fs.list('/sdcard/a')).toBeUndefined();
    expect(fs.list('/nope')).toBeUndefined();
    expect(fs.read('/sdcard')).toBeUndefined();
  });

  it('refuses to write over a directory or through a file, with the message adb push prints', () => {
    const fs = files();
    fs.mkdir('/sdcard/dir');
    fs.write('/sdcard/file', Buffer.alloc(1), 0o644, 1);
    expect(() => fs.write('/sdcard/dir', Buffer.alloc(1), 0o644, 1)).toThrow("couldn't create file: Is a directory");
    expect(() => fs.write('/sdcard/file/x', Buffer.alloc(1), 0o644, 1)).toThrow('Not a directory');
  });

  it('removes files and empty directories only', () => {
    const fs = files();
    fs.write('/d/f', Buffer.alloc(1), 0o644, 1);
    expect(fs.remove('/d')).toBe(false);
    expect(fs.remove('/d/f')).toBe(true);
    expect(fs.remove('/d')).toBe(true);
    expect(fs.stat('/d')).toBeUndefined();
  });
});
