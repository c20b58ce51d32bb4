import type { AndroidAppDefinition } from './app';
import { calculatorApp } from './calculator';
import { cameraApp } from './camera';
import { chromeApp } from './chrome';
import { clockApp } from './clock';
import { contactsApp } from './contacts';
import { mapsApp } from './maps';
import { messagesApp } from './messages';
import { photosApp } from './photos';
import { settingsApp } from './settings';
import { simpleApp } from './simple';

/**
 * Every app the virtual Android phone ships with (the launcher is the phone's own). Settings lists `installed()`:
 * these and any the user installs later.
 */
export function androidApps(installed?: () => readonly AndroidAppDefinition[]): AndroidAppDefinition[] {
  const apps: AndroidAppDefinition[] = [];
  apps.push(
    settingsApp(installed ?? (() => apps)),
    chromeApp,
    mapsApp,
    messagesApp,
    clockApp,
    contactsApp,
    calculatorApp,
    photosApp,
    simpleApp('com.google.android.dialer', 'Phone', 'com.google.android.dialer.extensions.GoogleDialtactsActivity', { background: '#1a73e8', foreground: '#ffffff', letter: 'T' }, ['Favorites', 'No favorites yet']),
    cameraApp,
  );
  return apps;
}
