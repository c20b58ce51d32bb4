import type { ApiError } from '../api';

/** The last failure, in the server's semantic words: what went wrong and what to do. */
export function ErrorBanner({ error, onDismiss }: { error: ApiError | undefined; onDismiss: () => void }) {
  if (!error) return null;
  return (
    <div class="error" role="alert" data-code={error.code}>
      <div>
        <strong>{error.message}</strong>
        {error.hint && <p class="hint">{error.hint}</p>}
      </div>
      <button type="button" onClick={onDismiss} aria-label="Dismiss the error">
        ×
      </button>
    </div>
  );
}
