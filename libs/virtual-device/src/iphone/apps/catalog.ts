import type { AppDefinition } from './app';
import { cameraApp } from './camera';
import { mapsApp } from './maps';
import { messagesApp } from './messages';
import { notesApp } from './notes';
import { photosApp } from './photos';
import { remindersApp } from './reminders';
import { safariApp } from './safari';
import { settingsApp } from './settings';
import { simpleApp } from './simple';

const white = '#ffffff';

/** Every installed app except SpringBoard, by bundle id. */
export function installedApps(): AppDefinition[] {
  return [
    settingsApp,
    notesApp,
    safariApp,
    photosApp,
    mapsApp,
    simpleApp('com.apple.mobilecal', 'Calendar', { background: '#ffffff', foreground: '#ff3b30', letter: '10' }, ['Monday, June 10', 'No Events']),
    simpleApp('com.apple.mobiletimer', 'Clock', { background: '#1c1c1e', foreground: white, letter: 'C' }, [
      { title: 'World Clock', lines: ['Cupertino', '9:41', 'Today, +0HRS'] },
      { title: 'Alarms', lines: ['No Alarms'] },
      { title: 'Stopwatch', lines: ['00:00,00'] },
      { title: 'Timers', lines: ['15 min', 'Start'] },
    ]),
    cameraApp,
    simpleApp('com.apple.weather', 'Weather', { background: '#32ade6', foreground: white, letter: 'W' }, ['Cupertino', '21° Sunny', 'H:24° L:13°']),
    messagesApp,
    simpleApp('com.apple.Music', 'Music', { background: '#ff2d55', foreground: white, letter: 'M' }, [
      { title: 'Listen Now', lines: ['Not Playing'] },
      { title: 'Browse', lines: ['New Music'] },
      { title: 'Radio', lines: ['Apex Radio'] },
      { title: 'Library', lines: ['No Songs'] },
    ]),
    simpleApp('com.apple.mobilemail', 'Mail', { background: '#007aff', foreground: white, letter: 'M' }, ['Inbox', 'No Mail']),
    simpleApp('com.apple.mobilephone', 'Phone', { background: '#34c759', foreground: white, letter: 'P' }, [
      { title: 'Favorites', lines: ['No Favorites'] },
      { title: 'Recents', lines: ['No Recents'] },
      { title: 'Contacts', lines: ['No Contacts'] },
      { title: 'Keypad', lines: ['Enter a number'] },
      { title: 'Voicemail', lines: ['No Voicemail'] },
    ]),
    remindersApp,
    simpleApp('com.apple.AppStore', 'App Store', { background: '#007aff', foreground: white, letter: 'A' }, ['Today', 'Apps and Games']),
    simpleApp('com.apple.MobileAddressBook', 'Contacts', { background: '#8e8e93', foreground: white, letter: 'C' }, ['Contacts', 'No Contacts']),
    simpleApp('com.apple.DocumentsApp', 'Files', { background: '#007aff', foreground: white, letter: 'F' }, ['Browse', 'On My iPhone']),
    simpleApp('com.apple.calculator', 'Calculator', { background: '#1c1c1e', foreground: '#ff9500', letter: '=' }, ['0']),
    simpleApp('com.apple.Health', 'Health', { background: '#ffffff', foreground: '#ff2d55', letter: 'H' }, ['Summary', 'No Data']),
    simpleApp('com.apple.Passbook', 'Wallet', { background: '#1c1c1e', foreground: white, letter: 'W' }, ['Wallet', 'No Cards']),
    simpleApp('com.apple.stocks', 'Stocks', { background: '#1c1c1e', foreground: white, letter: 'S' }, ['Stocks', 'Markets Closed']),
    simpleApp('com.apple.iBooks', 'Books', { background: '#ff9500', foreground: white, letter: 'B' }, ['Reading Now', 'No Books']),
    simpleApp('com.apple.podcasts', 'Podcasts', { background: '#af52de', foreground: white, letter: 'P' }, ['Listen Now', 'No Episodes']),
    simpleApp('com.apple.facetime', 'FaceTime', { background: '#34c759', foreground: white, letter: 'F' }, ['FaceTime', 'No Recent Calls']),
  ];
}

/** Home screen arrangement by app name: pages of the grid, then the dock. */
export const HOME_PAGES: readonly (readonly string[])[] = [
  ['Calendar', 'Photos', 'Camera', 'Mail', 'Clock', 'Maps', 'Weather', 'Reminders', 'Notes', 'Stocks', 'Books', 'App Store', 'Podcasts', 'Health', 'Wallet', 'Settings'],
  ['Contacts', 'Files', 'Calculator', 'FaceTime'],
];
export const DOCK: readonly string[] = ['Phone', 'Safari', 'Messages', 'Music'];
