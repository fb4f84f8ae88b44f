import type { WorkspaceChoice } from '#server/workspaces/schema.ts';

/**
 * The navigation's workspace switcher: a labelled select and an explicit button (changing the
 * select alone never navigates, WCAG 3.2.2), working without JavaScript. Every page then acts in
 * the chosen workspace (docs/workspaces.md#switching).
 */
export function WorkspaceSwitcher({
  choices,
  currentId,
  switchWorkspace,
}: {
  choices: WorkspaceChoice[];
  currentId: string;
  switchWorkspace: (form: FormData) => Promise<void>;
}) {
  return (
    <form action={switchWorkspace} className="workspace-switcher" aria-label="Workspace">
      <label htmlFor="workspace-switcher">Workspace</label>
      <div className="row">
        <select id="workspace-switcher" name="workspaceId" defaultValue={currentId} key={currentId}>
          {choices.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-sm">
          Switch
        </button>
      </div>
    </form>
  );
}
