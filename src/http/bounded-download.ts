/**
 * Files fetched from a chat platform's file host (a `from-file:` link, a form's upload) are read counted:
 * a declared Content-Length beyond the cap is refused before the body is read, and the body is
 * read chunk by chunk and the download cancelled as soon as it passes the cap, so a 300 MB file never sits in
 * memory. One helper for the Slack and Discord adapters.
 */

/** What a bounded download gave: the bytes, or why there are none. */
export type BoundedDownload =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'too-large' }
  /** Not found, refused, redirected, timed out or cut off: the adapters say the file could not be read. */
  | { kind: 'failed' };

export interface BoundedDownloadOptions {
  /** Bytes the file may have at most. */
  maxBytes: number;
  headers?: Record<string, string>;
  /** Longest the whole download may take (default 10 s). */
  timeoutMs?: number;
}

export async function downloadBounded(
  url: string,
  options: BoundedDownloadOptions,
): Promise<BoundedDownload> {
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(options.timeoutMs ?? 10_000)]);
  try {
    const res = await fetch(url, {
      redirect: 'error',
      signal,
      ...(options.headers ? { headers: options.headers } : {}),
    });
    if (!res.ok) return { kind: 'failed' };
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > options.maxBytes) return { kind: 'too-large' };
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      size += read.value.byteLength;
      if (size > options.maxBytes) return { kind: 'too-large' };
      chunks.push(read.value);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return { kind: 'bytes', bytes };
  } catch {
    return { kind: 'failed' };
  } finally {
    // Whatever is left of the body is not read: the connection is closed, not drained.
    stop.abort();
  }
}
