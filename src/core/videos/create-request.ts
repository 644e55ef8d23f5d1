/**
 * The create flow up to the confirmation: checks the script, resolves voice, model, style and language
 * against the catalogs, reads the cost and balance, and answers a confirm card. The pending request is kept
 * in the store as the model of a card that is never posted (key `create-request:<id>`), so the Create
 * button only carries that short id.
 */
import { randomBytes } from 'node:crypto';
import { spendApprovalNote } from '../approvals/month-spend.js';
import { needsApproval } from '../approvals/policy.js';
import { checkRole } from '../approvals/roles.js';
import { type CommandContext, userError } from '../dispatch/context.js';
import { keepPending } from '../dispatch/pending-request.js';
import { excerpt, voiceLabel } from '../format/video.js';
import type { Card } from '../text/cards.js';
import { catalogLabel } from '../text/labels.js';
import { type CardText, literal, md } from '../text/text.js';
import {
  type CreateVideoInput,
  type Model,
  type OptionItem,
  VideoApiError,
  type Voice,
} from '../video-api/video-api.js';
import {
  catalogValue,
  defaultVoice,
  loadVoices,
  modelCatalog,
  modelWithCost,
  pickVoice,
} from './catalog-choices.js';

export const SCRIPT_MIN = 10;
export const SCRIPT_MAX = 10_000;
export const NAME_MAX = 120;
/**
 * `masterStyle` and `globalNegativePrompt` have no documented limit; the bot bounds them like the longest
 * documented text (the script) so a paste never grows without end.
 */
export const DIRECTIVE_MAX = SCRIPT_MAX;
/** After this, prices or the balance may have moved: the user asks again. */
export const REQUEST_TTL_MS = 30 * 60_000;

/** What the user asked for, as typed (command flags or form fields). */
export interface CreateDraft {
  script: string;
  voice?: string | undefined;
  model?: string | undefined;
  style?: string | undefined;
  language?: string | undefined;
  name?: string | undefined;
  music?: boolean | undefined;
  /** `masterStyle`: a style directive applied to every scene. */
  masterStyle?: string | undefined;
  /** `globalNegativePrompt`: things to avoid in every scene. */
  negative?: string | undefined;
}

/** A create waiting for its Create/Cancel click. */
export interface PendingCreate {
  type: 'create-request';
  requester: string;
  requesterName?: string;
  input: CreateVideoInput;
  voiceLabel: string;
  cost: number;
  balance: number;
  createdAt: number;
  state: 'pending' | 'created' | 'cancelled';
  videoId?: string;
  videoName?: string;
}

export const requestKey = (id: string): string => `create-request:${id}`;

/** The confirm card's "More options" button: a form for the name and scene directives (create-options.ts). */
export const CREATE_OPTIONS_ACTION = 'video.create.options';

/** Length checks done before anything is sent (spec §8: script 10–10000, name ≤ 120). */
export function checkDraft(draft: CreateDraft): void {
  const script = draft.script.trim();
  if (script === '') throw userError('field-required', { option: 'script', file: 'yes' });
  if (script.length < SCRIPT_MIN)
    throw userError('too-short', { option: 'script', length: script.length, min: SCRIPT_MIN });
  if (script.length > SCRIPT_MAX)
    throw userError('too-long', { option: 'script', length: script.length, max: SCRIPT_MAX });
  const name = draft.name?.trim();
  if (name && name.length > NAME_MAX)
    throw userError('too-long', { option: 'name', length: name.length, max: NAME_MAX });
  for (const [option, field, value] of [
    ['master-style', 'master style', draft.masterStyle],
    ['negative', 'negative prompt', draft.negative],
  ] as const) {
    const length = value?.trim().length ?? 0;
    if (length > DIRECTIVE_MAX) throw userError('too-long', { option, field, length, max: DIRECTIVE_MAX });
  }
}

/** The name the service will use: the given one, else the start of the script. */
export const displayedName = (input: CreateVideoInput): string => input.name ?? excerpt(input.script, 60);

/** Credits per model as documented (spec §2 "Credit costs per video"), for keys that cannot read the catalog. */
const DOCUMENTED_MODELS: OptionItem[] = [
  { value: 'storyboard', name: 'Storyboard', credits: 20 },
  { value: 'motion_lite', name: 'Motion Lite', credits: 50 },
  { value: 'motion_pro', name: 'Motion Pro', credits: 100 },
];

/**
 * The voice to use. Without `catalog:read` the voice list cannot be read: a typed voice then goes through as
 * an id (the service judges it), and without one the user is told what is missing.
 */
async function chooseVoice(
  ctx: CommandContext,
  typed: string | undefined,
  language: string | undefined,
): Promise<Voice> {
  let voices: Voice[];
  try {
    voices = await loadVoices(ctx);
  } catch (error) {
    if (!(error instanceof VideoApiError && error.type === 'forbidden_scope' && typed)) throw error;
    return { id: typed.trim(), name: typed.trim(), isCustom: false };
  }
  const voice = typed ? pickVoice(voices, typed, language) : defaultVoice(voices, language);
  if (!voice) throw userError('no-voices');
  return voice;
}

/** Validates and prices a draft, stores it pending, and returns the confirm card. */
export async function prepareCreate(ctx: CommandContext, draft: CreateDraft): Promise<Card> {
  checkDraft(draft);
  await checkRole(ctx, 'spend');
  const api = await ctx.api();
  const language = draft.language
    ? await catalogValue(ctx, { kind: 'languages', option: 'language', typed: draft.language })
    : undefined;
  const style = draft.style
    ? await catalogValue(ctx, { kind: 'styles', option: 'style', typed: draft.style })
    : undefined;

  const voice = await chooseVoice(ctx, draft.voice, language);

  const model = draft.model ?? 'storyboard';
  const models = await modelCatalog(ctx).catch((error: unknown) => {
    // A key without `catalog:read` can still create: the spec's cost table stands in for the catalog.
    if (error instanceof VideoApiError && error.type === 'forbidden_scope') return DOCUMENTED_MODELS;
    throw error;
  });
  const item = models.find((m) => m.value === model);
  if (!item || item.credits === undefined) {
    throw userError('model-unavailable', { model, allowed: models.map(modelWithCost).join(', ') || 'none' });
  }
  const cost = item.credits;
  const balance = (await api.me.get()).team.credits;
  // Said up front: a create the team cannot pay for is never sent (it would only come back as 402).
  if (balance < cost) throw userError('api.insufficient_credits', { cost, balance });

  const input: CreateVideoInput = {
    script: draft.script.trim(),
    voiceId: voice.id,
    model: item.value as Model,
  };
  if (draft.name?.trim()) input.name = draft.name.trim();
  if (style) input.style = style;
  if (language) input.language = language;
  if (draft.music) input.enableBackgroundMusic = true;
  if (draft.masterStyle?.trim()) input.masterStyle = draft.masterStyle.trim();
  if (draft.negative?.trim()) input.globalNegativePrompt = draft.negative.trim();

  const id = randomBytes(9).toString('base64url');
  const pending: PendingCreate = {
    type: 'create-request',
    requester: ctx.req.user,
    ...(ctx.req.userName ? { requesterName: ctx.req.userName } : {}),
    input,
    voiceLabel: voiceLabel(voice),
    cost,
    balance,
    createdAt: ctx.now(),
    state: 'pending',
  };
  return savePending(ctx, id, pending);
}

/**
 * Stores a pending create under its id and answers its confirm card: a new request, or one whose options were
 * changed ("More options", create-options.ts). The Create button asks an approver where the channel says so.
 */
export async function savePending(ctx: CommandContext, id: string, pending: PendingCreate): Promise<Card> {
  const { model, language, style } = pending.input;
  const [modelName, languageName, styleName] = await Promise.all([
    catalogLabel(ctx, 'models', model ?? 'storyboard'),
    language ? catalogLabel(ctx, 'languages', language) : undefined,
    style ? catalogLabel(ctx, 'styles', style) : undefined,
  ]);
  const card = confirmCard(id, pending, { model: modelName, language: languageName, style: styleName });
  if (await needsApproval(ctx, { kind: 'spend', credits: pending.cost }))
    asksApproval(card, await spendApprovalNote(ctx, pending.cost));
  await keepPending(ctx, requestKey(id), { pending, card });
  return card;
}

/** The catalog names of the create's model, language and style (labels.ts), as the form showed them. */
interface CreateLabels {
  model: string;
  language: string | undefined;
  style: string | undefined;
}

export function confirmCard(id: string, p: PendingCreate, labels: CreateLabels): Card {
  const name = displayedName(p.input);
  const fields = [
    { label: md`Voice`, value: literal(p.voiceLabel), short: true },
    { label: md`Model`, value: literal(labels.model), short: true },
  ];
  if (labels.language) fields.push({ label: md`Language`, value: literal(labels.language), short: true });
  if (labels.style) fields.push({ label: md`Style`, value: literal(labels.style), short: true });
  if (p.input.enableBackgroundMusic) fields.push({ label: md`Music`, value: md`on`, short: true });
  if (p.input.masterStyle)
    fields.push({ label: md`Master style`, value: literal(excerpt(p.input.masterStyle, 200)), short: false });
  if (p.input.globalNegativePrompt)
    fields.push({
      label: md`Avoid`,
      value: literal(excerpt(p.input.globalNegativePrompt, 200)),
      short: false,
    });
  fields.push({
    label: md`Script (${p.input.script.length} characters)`,
    value: literal(excerpt(p.input.script, 280)),
    short: false,
  });
  return {
    title: md`Create “${literal(name)}”?`,
    tone: 'info',
    text: md`Create “${literal(name)}” with ${literal(labels.model)}: **${p.cost} credits**, balance ${p.balance} → ${p.balance - p.cost}.`,
    fields,
    controls: [
      {
        kind: 'button',
        action: 'video.create.confirm',
        value: id,
        label: `Create (${p.cost} credits)`,
        style: 'primary',
      },
      // The rarely used options (name, scene directives) are changed here, not asked before the cost.
      { kind: 'button', action: CREATE_OPTIONS_ACTION, value: id, label: 'More options' },
      { kind: 'button', action: 'video.create.cancel', value: id, label: 'Cancel' },
    ],
    context: md`Credits are charged when you press Create; a failed generation is not refunded automatically.`,
  };
}

/** Above the channel's spend threshold the Create button sends the request to an approver instead. */
function asksApproval(card: Card, note: CardText): void {
  const create = card.controls?.find((c) => c.kind === 'button' && c.action === 'video.create.confirm');
  if (create?.kind === 'button') create.label = create.label.replace(/^Create/, 'Request approval');
  card.context = note;
}
