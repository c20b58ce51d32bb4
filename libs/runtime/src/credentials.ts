import { ApexError } from '@apex/errors';

/** Where a device cloud's (or a lab's) credentials are read: environment variables named in the configuration. */
export interface CredentialSources {
  /** The variable that holds the user name. */
  usernameEnv?: string;
  /** The variable that holds the access key. */
  keyEnv?: string;
}

/** A server address without credentials, and the header that carries them. */
export interface ResolvedEndpoint {
  /** The address with any userinfo removed: the only form that may reach logs, errors or outputs. */
  url: string;
  /** `Basic …`, when credentials were given. */
  authorization?: string;
}

/**
 * Takes the credentials out of an address: its userinfo (`https://user:key@hub.example/wd/hub`), else the
 * named environment variables. Naming a variable that is unset or empty is `invalid_argument` naming the
 * variable, never its value.
 */
export function resolveEndpoint(address: string, sources: CredentialSources, env: NodeJS.ProcessEnv): ResolvedEndpoint {
  const url = new URL(address);
  let username = decodeURIComponent(url.username);
  let key = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const bare = url.toString().replace(/\/$/, '');
  if (!username && !key) {
    username = fromEnv(sources.usernameEnv, env) ?? '';
    key = fromEnv(sources.keyEnv, env) ?? '';
  }
  if (!username && !key) return { url: bare };
  return { url: bare, authorization: `Basic ${Buffer.from(`${username}:${key}`).toString('base64')}` };
}

function fromEnv(name: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (name === undefined) return undefined;
  const value = env[name];
  if (!value) {
    throw new ApexError('invalid_argument', `The environment variable ${name} named in the configuration is not set.`, {
      hint: `Set ${name} to the credential, or remove it from the configuration.`,
    });
  }
  return value;
}

/** An address as it may be shown: without userinfo. */
export function redactedUrl(address: string): string {
  const url = new URL(address);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/$/, '');
}
