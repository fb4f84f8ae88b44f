import type { WorkspaceChoice } from '#server/workspaces/schema.ts';

/**
 * The consent and CLI authorization pages' choice of workspace: what is granted acts there only,
 * with the person's role in it (docs/workspaces.md#tokens). A labelled native select: keyboard and
 * screen readers work as everywhere else.
 */
export function WorkspacePicker({ choices, currentId }: { choices: WorkspaceChoice[]; currentId: string }) {
  return (
    <div className="field">
      <label htmlFor="consent-workspace">Workspace</label>
      <select id="consent-workspace" name="workspaceId" defaultValue={currentId}>
        {choices.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({w.role})
          </option>
        ))}
      </select>
      <p className="hint">It acts in this workspace only, with your role there.</p>
    </div>
  );
}
