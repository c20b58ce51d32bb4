/** A notification in the shade. */
export interface PostedNotification {
  /** The poster's package and tag, unique in the shade (a second post with both replaces the first). */
  key: string;
  /** Who posted it (`com.android.shell` for `cmd notification post`). */
  poster: string;
  title?: string;
  text: string;
  /** What a tap opens: an app by package (its launcher activity), when the notification has a content intent. */
  opens?: string;
}

/** NotificationManager's active notifications, newest first. */
export class Notifications {
  private list: PostedNotification[] = [];

  post(n: PostedNotification): void {
    this.list = [n, ...this.list.filter((m) => m.key !== n.key)];
  }

  cancel(key: string): PostedNotification | undefined {
    const n = this.list.find((m) => m.key === key);
    this.list = this.list.filter((m) => m.key !== key);
    return n;
  }

  /** An app's notifications go with it (uninstall, `pm clear`). */
  cancelFor(pkg: string): void {
    this.list = this.list.filter((m) => m.poster !== pkg && m.opens !== pkg);
  }

  active(): readonly PostedNotification[] {
    return this.list;
  }

  get(key: string): PostedNotification | undefined {
    return this.list.find((m) => m.key === key);
  }
}
