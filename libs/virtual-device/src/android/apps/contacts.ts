import { ScrollState } from '../../engine/ui/scroll';
import type { AndroidView } from '../android-view';
import { APP_BAR_HEIGHT, appWindow, contentRect, listView, textView, topAppBar } from '../ui/widgets';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv } from './app';

export const CONTACTS_PACKAGE = 'com.google.android.contacts';
const PEOPLE_ACTIVITY = 'com.android.contacts.activities.PeopleActivity';
const DETAIL_ACTIVITY = 'com.android.contacts.quickcontact.QuickContactActivity';

export const CONTACTS = [
  { name: 'Ada Lovelace', phone: '+44 20 7946 0001', color: '#7b5ea7' },
  { name: 'Alan Turing', phone: '+44 20 7946 0002', color: '#1a73e8' },
  { name: 'Grace Hopper', phone: '+1 202-555-0143', color: '#188038' },
  { name: 'Katherine Johnson', phone: '+1 757-555-0199', color: '#c5221f' },
  { name: 'Linus Torvalds', phone: '+358 9 555 0100', color: '#e37400' },
];

class ContactsInstance implements AndroidAppInstance {
  private open: number | null = null;
  private readonly scroll = new ScrollState();

  window(env: AndroidEnv): AndroidView {
    const content = contentRect(env);
    if (this.open === null) {
      const bar = topAppBar(env, { uid: 'contacts/bar', title: 'Contacts', pkg: CONTACTS_PACKAGE });
      const rows = CONTACTS.map((c, i) => ({ id: `contact/${i}`, title: c.name, icon: { color: c.color, letter: c.name[0] }, onTap: () => (this.open = i) }));
      const list = listView(env, 'contacts/list', { x: 0, y: content.y + APP_BAR_HEIGHT, width: env.width, height: content.height - APP_BAR_HEIGHT }, rows, this.scroll, `${CONTACTS_PACKAGE}:id/contact_list`);
      return appWindow(env, CONTACTS_PACKAGE, [bar, list]);
    }
    const c = CONTACTS[this.open];
    const bar = topAppBar(env, { uid: 'contacts/detail/bar', title: '', pkg: CONTACTS_PACKAGE, onUp: () => this.back() });
    return appWindow(env, CONTACTS_PACKAGE, [
      bar,
      textView(env, 'contacts/detail/name', c.name, { x: 0, y: content.y + 120, width: env.width, height: 40 }, { size: 28, align: 'center', resourceId: `${CONTACTS_PACKAGE}:id/large_title` }),
      textView(env, 'contacts/detail/phone', c.phone, { x: 24, y: content.y + 200, width: env.width - 48, height: 32 }, { size: 18, resourceId: `${CONTACTS_PACKAGE}:id/header` }),
      textView(env, 'contacts/detail/kind', 'Mobile', { x: 24, y: content.y + 232, width: 120, height: 24 }, { size: 14, color: env.theme.secondaryLabel }),
    ]);
  }

  focusedInput() {
    return null;
  }

  back(): boolean {
    if (this.open === null) return false;
    this.open = null;
    return true;
  }

  activity(): string {
    return this.open === null ? PEOPLE_ACTIVITY : DETAIL_ACTIVITY;
  }

  reset(): void {
    this.open = null;
    this.scroll.reset();
  }
}

export const contactsApp: AndroidAppDefinition = {
  pkg: CONTACTS_PACKAGE,
  label: 'Contacts',
  launcherActivity: PEOPLE_ACTIVITY,
  icon: { background: '#1a73e8', foreground: '#ffffff', letter: 'P' },
  versionName: '4.22.37',
  create: () => new ContactsInstance(),
};
