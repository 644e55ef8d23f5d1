/**
 * The fake Slack's checks of alert blocks (https://docs.slack.dev/reference/block-kit/blocks/alert): modals
 * only, a text object with text, a level among Slack's five. A message or Home view holding one is refused,
 * as is a malformed alert or one a workspace does not take (`refused`), each line with a json-pointer to the
 * block as Slack words it.
 */

const LEVELS = new Set(['default', 'info', 'warning', 'error', 'success']);
const TEXT_TYPES = new Set(['mrkdwn', 'plain_text']);
/** What Block Kit validators hold an alert's text to (Slack's reference names no limit). */
const MAX_TEXT = 200;

type Block = { type?: unknown; level?: unknown; text?: { type?: unknown; text?: unknown } };

const blocksOf = (blocks: unknown): Block[] => (Array.isArray(blocks) ? (blocks as Block[]) : []);

/** What is wrong with an alert block, if anything. */
function alertShapeProblem(block: Block): string | undefined {
  if (block.level !== undefined && !LEVELS.has(String(block.level))) return 'must be a valid enum value';
  const text = block.text;
  if (!text || !TEXT_TYPES.has(String(text.type)) || typeof text.text !== 'string' || text.text === '')
    return 'must provide a text object';
  if (text.text.length > MAX_TEXT) return `must be less than ${MAX_TEXT + 1} characters`;
  return undefined;
}

/** Slack's lines refusing the alert blocks of a message (`chat.*`, a response_url): alerts are for modals. */
export function alertsInMessage(blocks: unknown): string[] {
  return blocksOf(blocks).flatMap((block, at) =>
    block?.type === 'alert'
      ? [`[ERROR] alert blocks are only allowed in modals [json-pointer:/blocks/${at}/type]`]
      : [],
  );
}

/**
 * Slack's answer to a view (`views.open`, `views.update`, `views.push`, `views.publish`) whose alert blocks it
 * refuses; undefined when it takes them.
 */
export function viewAlertRefusal(
  view: unknown,
  refused: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  const v = (view ?? {}) as { type?: unknown; blocks?: unknown };
  const messages = blocksOf(v.blocks).flatMap((block, at) => {
    if (block?.type !== 'alert') return [];
    const pointer = `[json-pointer:/view/blocks/${at}`;
    if (refused.has('alert')) return [`[ERROR] unsupported type: alert ${pointer}/type]`];
    if (v.type !== 'modal') return [`[ERROR] alert blocks are only allowed in modals ${pointer}/type]`];
    const problem = alertShapeProblem(block);
    return problem ? [`[ERROR] ${problem} ${pointer}${problem.includes('enum') ? '/level' : '/text'}]`] : [];
  });
  if (messages.length === 0) return undefined;
  return { ok: false, error: 'invalid_arguments', response_metadata: { messages } };
}
