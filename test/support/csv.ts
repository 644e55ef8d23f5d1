/**
 * An independent RFC 4180 reader for tests: reads back the files the bot sends (records end in CRLF; quoted
 * fields may hold commas, doubled quotes and line breaks). Strict: a stray quote or a bare LF fails loudly, so
 * a file that only looks like CSV is caught.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i += 1;
        if (![',', '\r', undefined].includes(text[i]))
          throw new Error(`csv: text after a closing quote at ${i}`);
      } else {
        field += ch;
        i += 1;
      }
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i += 1;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i += 1;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (ch === '"' || ch === '\n' || ch === '\r') {
      throw new Error(`csv: unquoted ${JSON.stringify(ch)} at ${i}`);
    } else {
      field += ch;
      i += 1;
    }
  }
  if (quoted) throw new Error('csv: a quoted field never closes');
  if (field !== '' || row.length > 0) throw new Error('csv: the last record does not end in CRLF');
  return rows;
}

/** Rows as objects keyed by the header (the first record). */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error('csv: no header');
  for (const r of rows)
    if (r.length !== header.length) throw new Error(`csv: ${r.length} fields, header has ${header.length}`);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] as string])));
}

/**
 * A team with room for many videos (the demo team's plan caps projects at 100), for exports that page through
 * the list. Its key is `MANY_VIDEOS_KEY`.
 */
export const MANY_VIDEOS_KEY = 'fl_live_csv_export_team_key_0123456789ab';
export const manyVideosTeam = { name: 'Export team', projectCap: 1000, keys: [{ key: MANY_VIDEOS_KEY }] };

/** Captions `names.length` videos (free) straight through the simulator's HTTP API, oldest first. */
export async function captionVideos(o: {
  apiUrl: string;
  key: string;
  names: readonly string[];
}): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, name] of o.names.entries()) {
    const res = await fetch(`${o.apiUrl}/videos/captions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${o.key}`,
        'content-type': 'application/json',
        'idempotency-key': `csv-seed-${i}-${o.key.slice(-6)}`,
      },
      body: JSON.stringify({ videoUrl: `https://media.example.com/clip-${i}.mp4`, name }),
    });
    if (res.status !== 201) throw new Error(`captions answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { data: { id: string } }).data.id);
  }
  return ids;
}
