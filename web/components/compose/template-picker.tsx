/**
 * "New post from template": a plain GET form to /compose?template=<id>, so it works before any
 * script runs and with the keyboard alone; the page then opens the composer with that content.
 */
export function TemplatePicker({
  templates,
  current,
}: {
  templates: { id: string; name: string }[];
  current?: string;
}) {
  if (templates.length === 0) return null;
  return (
    <form method="get" action="/compose" className="row template-picker" aria-label="New post from template">
      <label htmlFor="template-choice" className="small">
        Start from a template
      </label>
      <select
        id="template-choice"
        name="template"
        className="input"
        defaultValue={current ?? ''}
        style={{ width: 'auto' }}
      >
        {!current && <option value="">Choose a template…</option>}
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-sm">
        Use template
      </button>
    </form>
  );
}
