/**
 * The one normaliser of unknown thrown values (STYLE rule 6), for log lines and failure reasons: name and
 * message, and the stack when asked. Never the error's other fields: a platform client's error may carry the
 * request, and with it a token. Adapters add what their platform's errors say safely (status, code) on top.
 */
export interface ErrorDescription {
  name: string;
  message: string;
  stack?: string;
}

export function describeError(error: unknown, options: { stack?: boolean } = {}): ErrorDescription {
  if (!(error instanceof Error)) return { name: 'unknown', message: stringOf(error) };
  const described: ErrorDescription = { name: error.name, message: error.message };
  if (options.stack && error.stack !== undefined) described.stack = error.stack;
  return described;
}

/** Only the message: `error.message`, or the thrown value as text. */
export const errorMessage = (error: unknown): string => describeError(error).message;

/** `String(value)`, which throws for an object without a prototype or with a throwing `toString`. */
function stringOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
