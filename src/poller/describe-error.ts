/**
 * Name and message only, for log lines and failure reasons: errors from the API client and the chat
 * adapters never carry keys or tokens, and stacks add nothing to a warning about a remote failure.
 */
export function describeError(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'unknown', message: String(error) };
}
