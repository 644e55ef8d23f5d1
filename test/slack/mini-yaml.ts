/**
 * A YAML reader for the block-style subset `manifest.yml` uses (maps, lists, lists of maps, plain and
 * double-quoted scalars, booleans, integers, comments). It throws on anything else, so the manifest test
 * cannot pass by silently skipping a line. (No YAML library is a dependency; Slack itself accepts this subset.)
 */
type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

interface Line {
  indent: number;
  text: string;
  no: number;
}

export function parseYaml(source: string): Value {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '') return;
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: tabs are not YAML indentation`);
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), no: i + 1 });
  });
  const [value, next] = block(lines, 0, lines[0]?.indent ?? 0);
  if (next !== lines.length) throw new Error(`line ${lines[next]?.no}: unexpected indentation`);
  return value;
}

function block(lines: Line[], at: number, indent: number): [Value, number] {
  const first = lines[at];
  if (!first) return [null, at];
  return first.text.startsWith('- ') ? list(lines, at, indent) : map(lines, at, indent);
}

function list(lines: Line[], at: number, indent: number): [Value[], number] {
  const out: Value[] = [];
  let i = at;
  while (
    i < lines.length &&
    (lines[i] as Line).indent === indent &&
    (lines[i] as Line).text.startsWith('- ')
  ) {
    const line = lines[i] as Line;
    const rest = line.text.slice(2).trim();
    if (/^[^"'][^:]*:(\s|$)/.test(rest)) {
      // A map inside the list: its first key sits after the dash, the others two columns further in.
      const inner: Line[] = [{ indent: indent + 2, text: rest, no: line.no }];
      let j = i + 1;
      while (j < lines.length && (lines[j] as Line).indent > indent) inner.push(lines[j++] as Line);
      const [value, used] = map(inner, 0, indent + 2);
      if (used !== inner.length)
        throw new Error(`line ${inner[used]?.no}: unexpected indentation in a list item`);
      out.push(value);
      i = j;
    } else {
      out.push(scalar(rest, line.no));
      i++;
    }
  }
  return [out, i];
}

function map(lines: Line[], at: number, indent: number): [{ [key: string]: Value }, number] {
  const out: { [key: string]: Value } = {};
  let i = at;
  while (i < lines.length && (lines[i] as Line).indent === indent) {
    const line = lines[i] as Line;
    const match = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(line.text);
    if (!match) throw new Error(`line ${line.no}: expected "key: value", got "${line.text}"`);
    const key = match[1] as string;
    if (key in out) throw new Error(`line ${line.no}: duplicate key ${key}`);
    if (match[2] !== undefined && match[2] !== '') {
      out[key] = scalar(match[2], line.no);
      i++;
      continue;
    }
    const child = lines[i + 1];
    if (!child || child.indent < indent || (child.indent === indent && !child.text.startsWith('- '))) {
      out[key] = null;
      i++;
      continue;
    }
    const [value, next] = block(lines, i + 1, child.indent);
    out[key] = value;
    i = next;
  }
  return [out, i];
}

function scalar(text: string, no: number): Value {
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`line ${no}: unterminated string`);
    return JSON.parse(text) as string;
  }
  if (
    text.startsWith("'") ||
    text.startsWith('[') ||
    text.startsWith('{') ||
    text.startsWith('&') ||
    text.startsWith('*')
  ) {
    throw new Error(`line ${no}: unsupported YAML here: ${text}`);
  }
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === '~') return null;
  if (/^-?\d+$/.test(text)) return Number(text);
  if (/:\s/.test(text)) throw new Error(`line ${no}: a plain scalar cannot contain ": " (quote it)`);
  return text;
}

function stripComment(line: string): string {
  let inQuote = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' && line[i - 1] !== '\\') inQuote = !inQuote;
    if (c === '#' && !inQuote && (i === 0 || /\s/.test(line[i - 1] as string))) return line.slice(0, i);
  }
  return line;
}
