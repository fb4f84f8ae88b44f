import type { Dispatch } from 'react';
import type { SignedAction, SnippetSummary } from './signatures.ts';

/** Says which default signatures were added to the message, each with a button taking it out. */
export function SignatureNotes({
  signatures,
  dispatch,
}: {
  signatures: SnippetSummary[];
  dispatch: Dispatch<SignedAction>;
}) {
  if (signatures.length === 0) return null;
  return (
    <ul className="list signature-notes" aria-label="Signatures added">
      {signatures.map((s) => (
        <li key={s.id} className="row small">
          <span className="muted" style={{ marginRight: 'auto' }}>
            Signature “{s.name}” was added to the message for the accounts it is the default of.
          </span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => dispatch({ type: 'signatureRemoved', snippetId: s.id })}
          >
            Remove signature<span className="sr-only"> “{s.name}”</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
