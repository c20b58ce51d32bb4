/** A photo or video the media scanner found. */
export interface MediaItem {
  /** Where it lies on the phone (`/sdcard/Pictures/beach.jpg`). */
  path: string;
  kind: 'photo' | 'video';
  /** The file's bytes, as pushed. */
  data: Uint8Array;
}

const KINDS: Record<string, MediaItem['kind']> = {
  jpg: 'photo',
  jpeg: 'photo',
  png: 'photo',
  gif: 'photo',
  webp: 'photo',
  heic: 'photo',
  mp4: 'video',
  '3gp': 'video',
  webm: 'video',
  mkv: 'video',
  mov: 'video',
};

/** The kind of media a file name says, or undefined for anything else (the scanner skips it). */
export function mediaKind(path: string): MediaItem['kind'] | undefined {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  return Object.prototype.hasOwnProperty.call(KINDS, ext) ? KINDS[ext] : undefined;
}

/** MediaStore's shared-storage table, as the scanner fills it (`MEDIA_SCANNER_SCAN_FILE`). */
export class MediaStore {
  private items: MediaItem[] = [];

  /** Adds (or refreshes) a scanned file; false when it is not media. */
  scan(path: string, data: Uint8Array | undefined): boolean {
    const kind = mediaKind(path);
    if (!kind || !data) {
      this.items = this.items.filter((i) => i.path !== path);
      return false;
    }
    this.items = [{ path, kind, data }, ...this.items.filter((i) => i.path !== path)];
    return true;
  }

  list(): readonly MediaItem[] {
    return this.items;
  }
}
