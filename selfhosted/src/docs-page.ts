/**
 * A self-contained HTML rendering of an OpenAPI document (no scripts, no CDN): operations grouped
 * by tag, their parameters, bodies and responses, and every schema as a property table.
 */
type Json = Record<string, unknown>;

export function renderDocsPage(doc: Json): string {
  const info = doc.info as Json;
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const schemas = ((doc.components as Json).schemas ?? {}) as Record<string, Json>;
  const tags = ((doc.tags as Json[] | undefined) ?? []).map((t) => t.name as string);
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const byTag = new Map<string, typeof operations>(tags.map((t) => [t, []]));
  for (const operation of operations) {
    const tag = ((operation.op.tags as string[] | undefined) ?? ['Other'])[0]!;
    byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
  }

  const nav = [...byTag.entries()]
    .map(
      ([tag, ops]) =>
        `<h4>${esc(tag)}</h4><ul>${ops
          .map(
            ({ path, method, op }) =>
              `<li><a href="#${esc(op.operationId as string)}"><span class="m ${method}">${method}</span> ${esc(path)}</a></li>`,
          )
          .join('')}</ul>`,
    )
    .join('');
  const schemaNav = `<h4>Schemas</h4><ul>${Object.keys(schemas)
    .map((name) => `<li><a href="#schema-${esc(name)}">${esc(name)}</a></li>`)
    .join('')}</ul>`;

  const sections = [...byTag.entries()]
    .map(
      ([tag, ops]) =>
        `<h2>${esc(tag)}</h2>${ops.map((o) => renderOperation(o.path, o.method, o.op)).join('')}`,
    )
    .join('');
  const schemaSections = Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section class="schema" id="schema-${esc(name)}"><h3>${esc(name)}</h3>${md(schema.description)}${schemaBlock(schema)}</section>`,
    )
    .join('');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title as string)} ${esc(info.version as string)}</title>
<style>${css}</style></head>
<body><nav><p class="brand">${esc(info.title as string)}<small>v${esc(info.version as string)} · <a href="/openapi.json">openapi.json</a></small></p>${nav}${schemaNav}</nav>
<main><h1>${esc(info.title as string)}</h1>${md(info.description)}
<p class="auth">Authentication: send <code>x-api-key</code> on every <code>/api</code> route.</p>
${sections}<h2>Schemas</h2>${schemaSections}</main></body></html>`;
}

function renderOperation(path: string, method: string, op: Json): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const body = op.requestBody as Json | undefined;
  const responses = op.responses as Record<string, Json>;
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  return `<section class="op" id="${esc(op.operationId as string)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code>${isPublic ? '<span class="pub">no auth</span>' : ''}</h3>
<p class="summary">${esc(op.summary as string)}</p>${md(op.description)}
${
  params.length
    ? `<h5>Parameters</h5><table><tr><th>Name</th><th>In</th><th>Schema</th><th>Description</th></tr>${params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name as string)}</code>${p.required ? ' <em>required</em>' : ''}</td><td>${esc(p.in as string)}</td><td>${typeLabel(p.schema as Json)}</td><td>${md(p.description)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${body ? `<h5>Request body</h5>${contentBlock(body.content as Record<string, Json>)}` : ''}
<h5>Responses</h5><table class="responses">${Object.entries(responses)
    .map(
      ([status, r]) =>
        `<tr><td><span class="s s${status[0]}">${status}</span></td><td>${md(r.description)}${r.content ? contentBlock(r.content as Record<string, Json>) : ''}</td></tr>`,
    )
    .join('')}</table></section>`;
}

function contentBlock(content: Record<string, Json>): string {
  return Object.entries(content)
    .map(
      ([type, { schema }]) => `<div class="ct"><code>${esc(type)}</code> ${typeLabel(schema as Json)}</div>`,
    )
    .join('');
}

function schemaBlock(schema: Json): string {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (!properties) return `<p>${typeLabel(schema)}</p>`;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return `<table><tr><th>Field</th><th>Type</th><th>Description</th></tr>${Object.entries(properties)
    .map(
      ([name, prop]) =>
        `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <em>required</em>' : ''}</td><td>${typeLabel(prop)}</td><td>${md(prop.description)}</td></tr>`,
    )
    .join('')}</table>`;
}

/** A compact type description with links to referenced schemas. */
function typeLabel(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return `<a class="ref" href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) return variants.map(typeLabel).join(' | ');
  if (Array.isArray(schema.enum))
    return schema.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ');
  if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  if (schema.type === 'array') return `${typeLabel(schema.items as Json)}[]`;
  if (schema.type === 'object' && schema.additionalProperties && !schema.properties) {
    const values = schema.additionalProperties === true ? undefined : (schema.additionalProperties as Json);
    return `{ [key]: ${Object.keys(values ?? {}).length ? typeLabel(values) : 'any'} }`;
  }
  const facets = ['format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']
    .filter((f) => schema[f] !== undefined && !(f === 'minimum' && Number(schema[f]) < -1e15))
    .filter((f) => !(f === 'maximum' && Number(schema[f]) > 1e15))
    .map((f) => `${f}: ${esc(String(schema[f]))}`);
  const type = esc(String(schema.type ?? 'any'));
  return facets.length ? `${type} <small>(${facets.join(', ')})</small>` : type;
}

/** Just enough Markdown for our descriptions: paragraphs, `code`, **bold** and links. */
function md(text: unknown): string {
  if (typeof text !== 'string' || !text) return '';
  return text
    .split(/\n{2,}/)
    .map(
      (paragraph) =>
        `<p>${esc(paragraph)
          .replace(/`([^`]+)`/g, '<code>$1</code>')
          .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
          .replace(/\[([^\]]+)\]\((#[^)\s]+)\)/g, (_, label: string, href: string) => {
            const target = href.startsWith('#/components/schemas/')
              ? `#schema-${href.split('/').pop()}`
              : href;
            return `<a href="${target}">${label}</a>`;
          })}</p>`,
    )
    .join('');
}

function esc(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const css = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#e3e6ec;--bg:#f7f8fa;--accent:#3a5bd9}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:280px;flex:none;background:var(--bg);border-right:1px solid var(--line);padding:16px 14px;font-size:13.5px}
nav ul{list-style:none;margin:0 0 8px;padding:0}nav li a{display:block;padding:3px 6px;border-radius:4px;color:var(--fg);text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav li a:hover{background:#e9ecf3}nav h4{margin:14px 0 4px;font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.brand{font-weight:700;margin:0}.brand small{display:block;font-weight:400;color:var(--muted)}
main{max-width:980px;padding:24px 40px 80px;flex:1;min-width:0}h1{margin-top:0}h2{margin-top:44px;border-bottom:1px solid var(--line);padding-bottom:6px}
.op,.schema{border:1px solid var(--line);border-radius:8px;padding:4px 20px 14px;margin:18px 0;scroll-margin-top:12px}
.op h3{display:flex;align-items:center;gap:10px;flex-wrap:wrap}.summary{font-weight:600;margin:0}
h5{margin:16px 0 6px;font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.m{display:inline-block;min-width:52px;text-align:center;font:700 11px/20px ui-monospace,monospace;text-transform:uppercase;border-radius:4px;color:#fff;padding:0 6px}
.get{background:#2f855a}.post{background:#2b6cb0}.put{background:#b7791f}.delete{background:#c53030}.patch{background:#6b46c1}.head{background:#4a5568}
.pub{font-size:11px;border:1px solid var(--line);border-radius:10px;padding:1px 8px;color:var(--muted);font-weight:500}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef1f6;border-radius:3px;padding:1px 4px}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border-top:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}th{font-size:12px;color:var(--muted);font-weight:600}
td p{margin:0 0 4px}em{font-style:normal;font-size:11px;color:#c05621}.ct{margin:2px 0}a{color:var(--accent)}a.ref{font-weight:600}
.s{display:inline-block;font:700 12px ui-monospace,monospace;padding:1px 6px;border-radius:4px}.s2{background:#e6f4ea;color:#22543d}.s3{background:#edf2f7;color:#2d3748}.s4{background:#fff4e5;color:#7b341e}.s5{background:#fde8e8;color:#822727}
.auth{background:var(--bg);border-left:3px solid var(--accent);padding:8px 12px}
@media (max-width:800px){body{display:block}nav{position:static;width:auto;height:auto}main{padding:16px}}
`;
