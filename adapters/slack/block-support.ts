/**
 * Which of Slack's newest blocks a workspace takes. Card, carousel, data table, data visualization and alert
 * blocks reach workspaces in phases, and an older client or a workspace without them refuses the whole
 * message (`invalid_blocks`). The card is then sent again in the classic blocks, and the refused types are
 * remembered for the workspace for a while, so later cards go classic at once instead of paying the refusal
 * each time; after `ttlMs` they are tried again. Memory per process: a replica that has not seen the
 * refusal pays it once itself.
 */
import type { Clock } from '../../src/core/index.js';

/** The block types that may be refused where they are not enabled yet. */
export const NATIVE_BLOCKS = ['card', 'carousel', 'data_table', 'data_visualization', 'alert'] as const;
export type NativeBlock = (typeof NATIVE_BLOCKS)[number];

/** No newest block: the classic rendering every workspace and client takes. */
export const CLASSIC: ReadonlySet<NativeBlock> = new Set();

const isNative = (type: unknown): type is NativeBlock => NATIVE_BLOCKS.includes(type as NativeBlock);

/** How long a refusal is remembered before the native blocks are tried again. */
export const REFUSAL_MEMORY_MS = 6 * 60 * 60_000;

/**
 * `[ERROR] unsupported type: carousel [json-pointer:/blocks/2/type]` → the block index it points at (a view's
 * pointers start at `/view/blocks`).
 */
const POINTER = /json-pointer:(?:\/view)?\/blocks\/(\d+)/;

/** The native types of `blocks` (top level and inside a carousel). */
export function nativeTypesIn(blocks: readonly { type: string; elements?: unknown }[]): Set<NativeBlock> {
  const types = new Set<NativeBlock>();
  for (const block of blocks) {
    if (isNative(block.type)) types.add(block.type);
    if (block.type === 'carousel') types.add('card');
  }
  return types;
}

/**
 * The native types Slack refused in a message of `blocks`: those of the blocks its messages point at, or
 * every native type sent when it points at none (or at a classic block: the refusal may still be ours).
 */
export function refusedNativeTypes(error: unknown, blocks: readonly { type: string }[]): Set<NativeBlock> {
  const pointed = new Set<NativeBlock>();
  for (const line of refusalLines(error)) {
    const at = POINTER.exec(String(line))?.[1];
    const block = at === undefined ? undefined : blocks[Number(at)];
    if (block) for (const type of nativeTypesIn([block])) pointed.add(type);
  }
  return pointed.size > 0 ? pointed : nativeTypesIn(blocks);
}

/**
 * The lines Slack explains a refusal with: `response_metadata.messages` (`[ERROR] … [json-pointer:…]`), and
 * on some answers a top-level `errors` list of the same lines without the prefix. Read both.
 */
function refusalLines(error: unknown): unknown[] {
  const data = (error as { data?: { errors?: unknown; response_metadata?: { messages?: unknown } } })?.data;
  const messages = data?.response_metadata?.messages;
  return [...(Array.isArray(messages) ? messages : []), ...(Array.isArray(data?.errors) ? data.errors : [])];
}

/** The refused native block types per workspace, each until its memory runs out. */
export class BlockSupport {
  private readonly refused = new Map<string, Map<NativeBlock, number>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = REFUSAL_MEMORY_MS,
  ) {}

  /** The native types `workspace` is not sent now. */
  refusedIn(workspace: string): ReadonlySet<NativeBlock> {
    const types = this.refused.get(workspace);
    const now = this.clock.now();
    const out = new Set<NativeBlock>();
    for (const [type, until] of types ?? []) {
      if (until > now) out.add(type);
      else types?.delete(type);
    }
    return out;
  }

  /** Remembers that `workspace` refused `types`. */
  refuse(workspace: string, types: Iterable<NativeBlock>): void {
    const until = this.clock.now() + this.ttlMs;
    const known = this.refused.get(workspace) ?? new Map<NativeBlock, number>();
    for (const type of types) known.set(type, until);
    this.refused.set(workspace, known);
  }
}
