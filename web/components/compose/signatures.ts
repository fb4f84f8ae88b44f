/**
 * Default signatures in the composer (docs/library.md#snippets). Picking an account whose default
 * signature is a snippet appends it to the message, visibly, where the person can edit or delete
 * it; unpicking the last such account takes it out again if it is still there as inserted. The
 * server never adds it: what is in the message is what is sent.
 */
import { type ComposerAction, type ComposerState, composerReducer } from './composer-state.ts';

export interface SnippetSummary {
  id: string;
  name: string;
  kind: 'signature' | 'hashtags' | 'text';
  body: string;
  defaultFor: string[];
}

/** The text the composer appended for each signature it inserted, by snippet id. */
export type InsertedSignatures = Record<string, string>;

export interface SignedText {
  message: string;
  inserted: InsertedSignatures;
}

export function defaultSignature(snippets: readonly SnippetSummary[], accountId: string) {
  return snippets.find((s) => s.kind === 'signature' && s.defaultFor.includes(accountId));
}

/** After `accountId` was picked: its default signature appended once (not when already there). */
export function afterPicking(
  text: SignedText,
  snippets: readonly SnippetSummary[],
  accountId: string,
): SignedText {
  const signature = defaultSignature(snippets, accountId);
  if (!signature || text.inserted[signature.id] !== undefined || text.message.includes(signature.body))
    return text;
  const appended = text.message.trim() === '' ? signature.body : `\n\n${signature.body}`;
  const message =
    text.message.trim() === '' ? signature.body : `${text.message.replace(/\s+$/, '')}${appended}`;
  return { message, inserted: { ...text.inserted, [signature.id]: appended } };
}

/**
 * After `accountId` was unpicked: its signature removed when no account still picked has it as
 * default and the inserted text is still in the message unchanged (edited text is left alone).
 */
export function afterUnpicking(
  text: SignedText,
  snippets: readonly SnippetSummary[],
  accountId: string,
  stillSelected: readonly string[],
): SignedText {
  const signature = defaultSignature(snippets, accountId);
  if (!signature || text.inserted[signature.id] === undefined) return text;
  if (stillSelected.some((id) => defaultSignature(snippets, id)?.id === signature.id)) return text;
  return removeSignature(text, signature.id);
}

/** Takes an inserted signature out of the message (if still there as inserted) and forgets it. */
export function removeSignature(text: SignedText, snippetId: string): SignedText {
  const appended = text.inserted[snippetId];
  const { [snippetId]: _, ...inserted } = text.inserted;
  if (appended === undefined) return text;
  const at = text.message.lastIndexOf(appended);
  const message =
    at < 0 ? text.message : text.message.slice(0, at) + text.message.slice(at + appended.length);
  return { message, inserted };
}

/** Inserted signatures still in the message as inserted (what the "Remove" buttons offer). */
export function visibleSignatures(text: SignedText, snippets: readonly SnippetSummary[]): SnippetSummary[] {
  return snippets.filter((s) => {
    const appended = text.inserted[s.id];
    return appended !== undefined && text.message.includes(appended);
  });
}

export type SignedState = ComposerState & { signatures: InsertedSignatures };
export type SignedAction = ComposerAction | { type: 'signatureRemoved'; snippetId: string };

/** The composer's reducer with default signatures following the picked accounts. */
export function signedReducer(snippets: readonly SnippetSummary[]) {
  return (state: SignedState, action: SignedAction): SignedState => {
    const text = { message: state.message, inserted: state.signatures };
    if (action.type === 'signatureRemoved') {
      const next = removeSignature(text, action.snippetId);
      return { ...state, message: next.message, signatures: next.inserted };
    }
    const next = composerReducer(state, action) as SignedState;
    if (action.type !== 'toggleAccount') return next;
    const signed = next.selected.includes(action.accountId)
      ? afterPicking(text, snippets, action.accountId)
      : afterUnpicking(text, snippets, action.accountId, next.selected);
    return { ...next, message: signed.message, signatures: signed.inserted };
  };
}

/** A new post's first state: accounts picked from the start get their signatures too. */
export function signedStart(
  state: ComposerState,
  snippets: readonly SnippetSummary[],
  isNew: boolean,
): SignedState {
  let text: SignedText = { message: state.message, inserted: {} };
  if (isNew) for (const id of state.selected) text = afterPicking(text, snippets, id);
  return { ...state, message: text.message, signatures: text.inserted };
}
