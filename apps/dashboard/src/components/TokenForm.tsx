import { useState } from 'preact/hooks';

/** Asked once when the server wants a bearer token; the token stays in this tab (sessionStorage). */
export function TokenForm({ onToken, rejected }: { onToken: (token: string) => void; rejected: boolean }) {
  const [token, setToken] = useState('');
  return (
    <main class="token-page">
      <form
        class="card token-form"
        aria-labelledby="token-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) onToken(token.trim());
        }}
      >
        <h1 id="token-title">Apex needs its token</h1>
        <p>This server requires a bearer token (the APEX_TOKEN it was started with). It is kept in this tab only.</p>
        {rejected && (
          <p class="error-text" role="alert">
            That token was refused.
          </p>
        )}
        <label for="token-input">Token</label>
        <input id="token-input" type="password" autoComplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <button type="submit" class="primary">
          Connect
        </button>
      </form>
    </main>
  );
}
