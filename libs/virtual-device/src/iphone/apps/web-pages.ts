import type { WebPage } from '../../engine/web-page';

export { layoutPage, drawPage, type Block, type PlacedBlock, type WebPage } from '../../engine/web-page';

export const HOME_URL = 'https://apex.example/';

const PAGES: Record<string, WebPage> = {
  'apex.example/': {
    title: 'Welcome to Apex',
    blocks: [
      { kind: 'h1', text: 'Welcome to Apex' },
      { kind: 'p', text: 'Apex lets agents and people drive mobile devices through one careful interface.' },
      { kind: 'p', text: 'This page is drawn inside a web view. Its words are pixels only, so reading them takes OCR.' },
      { kind: 'link', text: 'Read the getting started guide', href: 'https://apex.example/docs' },
      { kind: 'h2', text: 'What you can do' },
      { kind: 'p', text: 'Tap, swipe and type on a virtual iPhone. Take screenshots and read the screen.' },
      { kind: 'p', text: 'Find buttons by their label, or by their icon when they have no label at all.' },
      { kind: 'h2', text: 'Why pixels matter' },
      { kind: 'p', text: 'Many apps draw text that the accessibility tree never sees. Games, maps and web pages are common examples.' },
      { kind: 'p', text: 'An agent that can read pixels can still find its way around them.' },
      { kind: 'h2', text: 'The end of the page' },
      { kind: 'p', text: 'You scrolled all the way down. Thank you for reading.' },
    ],
  },
  'apex.example/docs': {
    title: 'Getting started',
    blocks: [
      { kind: 'h1', text: 'Getting started' },
      { kind: 'p', text: 'Step one: start the virtual iPhone. Step two: connect your agent. Step three: give it a task.' },
      { kind: 'link', text: 'Back to the welcome page', href: 'https://apex.example/' },
    ],
  },
};

/** Normalises what a user typed into the address bar into a URL. */
export function normalizeUrl(typed: string): string {
  const t = typed.trim();
  if (t === '') return HOME_URL;
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  return /^https?:\/\/[^/]+$/i.test(withScheme) ? `${withScheme}/` : withScheme;
}

export function pageFor(url: string): WebPage {
  const key = url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./, '');
  return (
    PAGES[key] ?? {
      title: 'Cannot Open Page',
      blocks: [
        { kind: 'h1', text: 'Safari Cannot Open the Page' },
        { kind: 'p', text: `Safari cannot open the page because the server "${key.split('/')[0]}" cannot be found.` },
      ],
    }
  );
}

/** Shown in the address bar when not editing: the host name. */
export function displayHost(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./, '').split('/')[0];
}
