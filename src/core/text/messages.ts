/**
 * Every user-facing sentence for expected mistakes and API failures, keyed by a stable code.
 * Adapters never word anything themselves; commands throw `userError(code, params)`.
 * Params are values as given (typed text, names, API messages): `say` escapes them for card text, except the
 * few listed in MARKDOWN_PARAMS, which the core builds as card markdown (mentions, code spans).
 */
import { MESSAGE_KINDS } from './message-kinds.js';
import type { Said } from './message-params.js';
import { TEAM_MESSAGES } from './team-messages.js';
import { type CardText, command, flag, hole, literal, md } from './text.js';

type Params = Record<string, string | number>;
export type Wording = (p: Said) => CardText;

const MESSAGES = {
  // Grammar and arguments
  'unknown-command': (p) =>
    md`I don't know the command \`${p.command}\`.${p.suggestion ? md` Did you mean ${command(String(p.suggestion))}?` : md``} Type ${command('help')} for the list.`,
  'unknown-subcommand': (p) =>
    md`\`${p.group} ${p.sub}\` isn't a command. Type ${command('help', [String(p.group)])} for its commands.`,
  'missing-subcommand': (p) =>
    md`\`${p.group}\` needs a subcommand. Type ${command('help', [String(p.group)])} to see them.`,
  'unknown-flag': (p) => md`\`${p.command}\` has no option \`--${p.flag}\`.`,
  'missing-flag-value': (p) => md`\`--${p.flag}\` needs a value.`,
  'missing-arg': (p) => md`\`${p.command}\` needs \`${p.option}\`.`,
  'extra-arg': (p) => md`I didn't expect \`${p.value}\` there. Quote text that has spaces.`,
  'unterminated-quote': (p) => md`A quote opened at character ${p.at} is never closed.`,
  'bad-int': (p) => md`\`${p.option}\` must be a whole number, not \`${p.value}\`.`,
  'int-range': (p) => md`\`${p.option}\` must be between ${p.min} and ${p.max} (got ${p.value}).`,
  'bad-boolean': (p) => md`\`${p.option}\` must be yes or no, not \`${p.value}\`.`,
  'bad-choice': (p) => md`\`${p.value}\` isn't a valid \`${p.option}\`. Choose one of: ${p.allowed}.`,
  'bad-platform': (p) =>
    p.value
      ? md`\`${p.value}\` isn't a platform. Use one of: ${p.allowed}.`
      : md`Name a platform: ${p.allowed}.`,
  'bad-url': (p) => md`\`${p.value}\` isn't a public http(s) URL.`,
  'too-long': (p) =>
    md`${fieldName(p)} is ${count(p.length)} characters, ${count(Number(p.length) - Number(p.max))} over its limit of ${count(p.max)}.`,
  'field-required': (p) =>
    md`${fieldName(p)} is required${p.file ? md`: type it or upload it as a file` : md``}.`,
  'too-short': (p) =>
    md`${fieldName(p)} is ${count(p.length)} characters; it needs at least ${count(p.min)}.`,
  // A typed command longer than the platform takes (the adapter says so; the field's own limit is the API's)
  'typed-too-long': (p) =>
    md`That ${fieldWord(p)} is ${count(p.length)} characters; a typed ${command(String(p.command))} takes up to ${count(p.cap)} here. ${
      Number(p.length) > Number(p.max)
        ? md`It also needs to be ${count(p.max)} at most (${count(Number(p.length) - Number(p.max))} over): shorten it, then `
        : md``
    }${
      p.form
        ? md`${Number(p.length) > Number(p.max) ? md`open` : md`Open`} the form (${command(String(p.command))} alone) and paste it there or upload it as a file.`
        : md`${Number(p.length) > Number(p.max) ? md`send` : md`Send`} it in shorter pieces.`
    }`,
  // Text files: a long script or description uploaded, or shared and named by its link
  'file-wrong-type': (p) =>
    md`\`${p.name}\` isn't a text file I can read: upload a ${p.accept} file (plain text, UTF-8).`,
  'file-too-large': (p) =>
    md`\`${p.name}\` is too long (${p.length} characters; the limit is ${p.max}). Shorten it and upload it again.`,
  'file-not-text': (p) =>
    md`\`${p.name}\` isn't UTF-8 text. Save it as plain text (UTF-8) and upload it again.`,
  'file-not-found': (p) =>
    md`I can't open the file \`${p.link}\`. Share a .txt or .md file in this conversation and give its link.`,
  'file-links-unsupported': () => md`Files shared by link are not supported here: paste the text instead.`,
  'bad-date': (p) =>
    md`I couldn't read \`${p.value}\` as a date. Try \`2026-12-01\`, \`tomorrow\` or \`next friday\`.`,
  'bad-when': (p) =>
    md`I couldn't read \`${p.value}\` as a time. Try \`tomorrow 9am\`, \`friday 18:00\` or \`2026-12-01 18:00\`.`,
  'past-time': (p) => md`${p.when} is in the past. Pick a time in the future, e.g. \`${p.suggestion}\`.`,
  'past-day': (p) => md`\`${p.value}\` is in the past. Pick a time in the future, e.g. \`${p.suggestion}\`.`,
  'too-far-ahead': (p) =>
    md`${p.when} is more than a year ahead: a post can be scheduled up to ${p.latest} at the latest.`,
  'bad-timezone': (p) =>
    md`\`${p.value}\` isn't an IANA time zone. Try \`Europe/Paris\` or \`America/New_York\`.`,

  // References
  'not-found-video': (p) =>
    md`No video matches \`${p.ref}\` in your team. Try ${command('videos')} to list them.`,
  'not-found-series': (p) => md`No series matches \`${p.ref}\` in your team. Try ${command('series list')}.`,
  'ambiguous-video': (p) =>
    md`\`${p.ref}\` matches several videos (${p.matches}). Use more of the name or the id.`,
  'ambiguous-series': (p) =>
    md`\`${p.ref}\` matches several series (${p.matches}). Use more of the name or the id.`,
  'no-last': (p) => md`You have no recent ${p.kind} here yet. Give its name or id instead of \`last\`.`,
  'not-found-voice': (p) => md`No voice matches \`${p.ref}\`. Try ${command('voices')} to list them.`,
  'not-found-account': (p) => md`No ${p.platform} account matches \`${p.ref}\`. Try ${command('accounts')}.`,
  // In a form the fix is in the form: the account by its label, what to pick instead (never an id or a command).
  'form-account-elsewhere': (p) =>
    md`${p.name} is not a ${p.platform} account. Under Account, pick ${p.allowed}, or leave it empty for the default.`,
  'no-account': (p) =>
    md`Your team has no ${p.platform} account connected. Connect one in the dashboard first.`,

  // Videos
  'ambiguous-voice': (p) =>
    md`\`${p.ref}\` matches several voices (${p.matches}). Use more of the name or the id.`,
  'voice-wrong-language': (p) =>
    md`No voice speaking \`${p.language}\` matches \`${p.ref}\`. Drop ${flag('voices', 'language')} or pick a voice from ${command('voices', [], { language: String(p.language) })}.`,
  'no-voices': () => md`Your team has no voices available. Check ${command('voices')} or the dashboard.`,
  'model-unavailable': (p) =>
    md`The model \`${p.model}\` is not offered to your team right now. Available: ${p.allowed}.`,
  'not-your-request': (p) =>
    md`Only ${p.who} can answer this confirmation. Run the command yourself to get your own.`,
  'request-expired': (p) =>
    md`This confirmation is more than ${p.minutes} minutes old, so prices and balance may have changed. Run ${command(String(p.command))} again.`,
  'render-not-ready': (p) =>
    md`“${p.name}” can't be rendered yet: generation is ${p.status} (${p.percent}%). I'll show a Render button on its card when it completes; ${command('status', [String(p.id)])} shows progress.`,
  'render-of-failed': (p) =>
    md`“${p.name}” failed to generate, so there is nothing to render. See ${command('status', [String(p.id)])} for the reasons, then create it again.`,
  'bad-button': () => md`This button is malformed or out of date. Run the command again.`,

  // Keys and people
  'approval-external-org': () =>
    md`Only members of this workspace decide its approval requests; your organisation is a guest in this shared channel.`,
  'workspace-not-allowed': (p) =>
    md`This ${p.where} isn't set up for reelbot — ask the team that runs it to add it.`,
  'not-linked': () =>
    md`You have not linked an API key yet. Run ${command('link')} to connect your team (the key goes in a private form).`,
  'key-in-channel': () =>
    md`Never paste an API key in a channel. Run ${command('link')} with no arguments: a private form opens.`,
  'key-unreadable': () =>
    md`Your linked API key can no longer be read here (the server’s encryption key changed). Run ${command('link')} again.`,
  'bad-key': () =>
    md`That key was not accepted by the video service. Copy it again from the developer dashboard.`,
  'interaction-expired': () => md`This button is no longer valid. Run the command again.`,
  // One-shot cards (one-shot.ts): a later click on a confirmation that already acted.
  'one-shot-done': (p) => md`Already done by ${p.who} at ${p.when}: ${p.what}. This card no longer acts.`,
  // Honest replays (typed-replay.ts): the same typed command again within the retry window.
  'typed-replay': (p) =>
    md`Already ${p.what} at ${p.when} (same command, ${Number(p.minutes) < 1 ? md`less than a minute` : Number(p.minutes) === 1 ? md`1 minute` : md`${p.minutes} minutes`} ago) — ${p.title}?`,
  'typed-replay-note': (p) =>
    md`The same command typed again within ${p.minutes} minutes counts as a retry, so nothing was sent twice.`,
  // Forms on platforms whose modals need a fresh click (Slack trigger ids last 3 s)
  'form-cancel': () => md`Cancel`,
  'form-open-button': () => md`Open form`,
  'form-open-later': (p) => md`**${p.title}** takes a few details in a form. Click the button to open it.`,
  'form-not-saved': (p) => md`The form was not saved:\n${p.errors}\nRun the command again to fix it.`,
  'not-allowed': (p) => md`Only ${p.who} may ${p.what} in this channel.`,

  // Series (schedule, edits)
  'series-bad-time': (p) =>
    md`\`${p.value}\` isn't a posting time. Use HH:mm on a 24-hour clock, e.g. \`09:00\` or \`18:30\` (or \`6pm\`).`,
  'series-bad-days': (p) =>
    md`\`${p.value}\` isn't a weekday. Use \`daily\`, \`weekdays\`, \`weekends\` or names like \`mon,wed,fri\`.`,
  'series-bad-schedule': (p) =>
    md`I couldn't read \`${p.value}\` as a schedule. Try \`daily 09:00 Europe/Paris\` or \`mon,wed,fri 18:00\`.`,
  'series-unknown-value': (p) => md`\`${p.value}\` isn't a known ${p.what}. Choose one of: ${p.allowed}.`,
  'series-bad-layout': (p) =>
    md`\`${p.value}\` isn't a layout name: one word of letters, digits, \`-\` or \`_\` (at most ${p.max} characters), as the dashboard names it.`,
  'series-bad-thumbnail-settings': (p) =>
    md`I couldn't read \`${p.value}\` as thumbnail settings. Write \`key=value\` pairs, e.g. \`style=bold,faces=yes\`, or a JSON object.`,
  'series-nothing-to-change': () =>
    md`Tell me what to change, e.g. \`--time 18:00\`, \`--days mon,wed,fri\`, \`--model motion_lite\` or \`--paused\`.`,

  // Publishing (meta, publish, schedule, unschedule, calendar)
  'meta-required': (p) => md`${p.platform} needs a ${lower(p.field)}.`,
  'meta-too-long': (p) =>
    md`The ${p.platform} ${lower(p.field)} is ${p.length} characters; ${p.platform} allows ${p.max}. Nothing was saved.`,
  'when-needs-time': (p) =>
    md`\`${p.value}\` has no time of day. Add one, e.g. \`${p.first}\`${p.second ? md` or \`${p.second}\`` : md``}.`,
  'privacy-youtube-only': (p) => md`\`--privacy\` applies to YouTube only, not ${p.platform}. Drop it.`,
  'caption-audio-and-video': () =>
    md`Give \`--audio\` or \`--video\`, not both: \`--audio\` sends the URL as audio, \`--video\` as a video.`,
  'publish-too-long': (p) =>
    md`\`--${p.option}\` is ${p.length} characters; ${p.platform} allows ${p.max}. Shorten it; nothing was posted.`,
  'description-unsupported': (p) =>
    md`\`--description\` applies to YouTube, Facebook and LinkedIn, not ${p.platform}. Put the text in \`--title\` instead.`,
  'account-choose': (p) =>
    md`${p.count} ${p.platform} accounts are connected and none is the default: pick one.`,
  'publish-video-url-https': (p) =>
    md`\`--video-url\` takes the https address of an MP4 (\`https://…/cut.mp4\`); \`${p.value}\` is not one.`,
  'publish-account-ambiguous': (p) =>
    md`${p.count} ${p.platform} accounts are connected and none is the default: name one with \`--account\`, or publish to ${p.platform} alone to pick it from a list.`,
  'publish-account-nowhere': (p) =>
    md`No account of ${p.platform} matches \`${p.ref}\`. Try ${command('accounts')}.`,
  'publish-retry-unapproved': (p) =>
    md`The approval of this publish is ${p.status} now, so it cannot be retried. Ask again with ${command('publish', [String(p.name), String(p.platform)])}.`,
  'publish-retry-needs-approval': (p) =>
    md`Publishing here needs an approver now, so ${p.platform} cannot be retried at once. Ask with ${command('publish', [String(p.name), String(p.platform)])}.`,
  'publish-video-failed': (p) =>
    md`**${p.name}** failed to generate, so there is nothing to publish. Create it again.`,
  'schedule-video-failed': (p) =>
    md`**${p.name}** failed to generate, so it cannot be scheduled. Create it again.`,
  'reschedule-nothing': (p) =>
    md`**${p.name}** has nothing scheduled${p.where ? md` on ${p.where}` : md``} to move. Use ${command('schedule')} to schedule it.`,
  'move-other-due': (p) =>
    md`**${p.name}** is due on ${p.platform} at ${p.when}: too soon to cancel and schedule again for the move (the service cancels every platform at once). Try again once it has gone out.`,
  'move-nothing-left': (p) =>
    md`Nothing of **${p.name}** is scheduled any more (it may have just gone out), so nothing was moved. ${command('calendar')} shows what happened.`,
  'move-incomplete': (p) =>
    md`The scheduled posts of **${p.name}** were cancelled for the move, but scheduling them again failed, so these are not scheduled now: ${p.lost}. Schedule them again with ${command('schedule')}.`,
  'date-range-reversed': (p) =>
    md`\`--to\` (${p.to}) is before \`--from\` (${p.from}): a range goes from the earlier day to the later one. Try \`--from ${p.to} --to ${p.from}\`.`,
  'calendar-range-too-long': (p) =>
    md`That range covers ${p.days} days; the calendar shows at most ${p.max}. Narrow \`--from\`/\`--to\`.`,
  // Queue slots and daily caps (DESIGN §10)
  'slots-bad': (p) =>
    md`\`${p.value}\` isn't a set of queue slots. Write days, then times on a 24-hour clock, e.g. \`${p.example}\` (days like \`daily\`, \`weekdays\` or \`mon,wed,fri\`).`,
  'slots-not-set': (p) =>
    md`${p.platform} has no queue slots yet, so there is no next free slot. An admin sets them with ${command('settings', ['slots', String(p.value), String(p.example)])}; or give a time instead of \`next\`.`,
  'slots-full': (p) =>
    md`${p.platform} has no free slot in the next ${p.days} days. Add slots with ${command('settings', ['slots', String(p.value), hole('days times')])}, or give a time instead of \`next\`.`,

  // Files sent with an answer (`--csv` exports)
  'csv-with-page': () => md`\`--csv\` exports every video in one file; leave out \`--page\`.`,
  'csv-with-search': () =>
    md`\`--csv\` exports every video in one file; leave out \`--search\` and \`--status\`, or leave out \`--csv\` to search.`,
  'search-with-page': () =>
    md`A search walks the whole list itself, ten at a time (**More →** goes on); leave out \`--page\`.`,
  'file-in-dm': (p) => md`I sent \`${p.filename}\` to our direct messages, so only you can see it.`,
  'file-not-carried': (p) =>
    md`This message cannot carry the file \`${p.filename}\`; run the command again to get it.`,
  'file-upload-failed': (p) =>
    md`I couldn't send the file \`${p.filename}\` (${p.reason}). Nothing else was changed; try again in a moment.`,
  'table-more-rows': (p) => md`…and ${count(p.count)} more ${Number(p.count) === 1 ? md`row` : md`rows`}.`,
  'card-files-refused': (p) =>
    md`I couldn't attach \`${p.filename}\` to this card (${p.reason}): check that I may attach files in this channel.`,

  // API failures (DESIGN §6), by error.type
  'api.invalid_input': (p) => md`The video service rejected the request: ${p.message}`,
  'api.unauthorized': () =>
    md`The video service no longer accepts your API key (revoked or wrong). Run ${command('link')} with a fresh key.`,
  'api.insufficient_credits': (p) =>
    p.cost !== undefined && p.balance !== undefined
      ? md`Not enough credits: this costs ${p.cost} and your team has ${p.balance}. Top up in the dashboard, or pick a cheaper model (storyboard costs 20).`
      : md`Your team does not have enough credits for this. Check ${command('credits')} and top up in the dashboard.`,
  'api.payment_failed': () =>
    md`The payment failed at the video service, so nothing was charged or created. Update the payment method in the dashboard, then try again.`,
  'api.forbidden_scope': (p) =>
    p.scope
      ? md`Your API key lacks the \`${p.scope}\` scope. Create a key with it in the dashboard and run ${command('link')}.`
      : md`Your API key lacks a scope this needs (${p.message}). Create a key with it and run ${command('link')}.`,
  'api.usage_limit_reached': () =>
    md`Your plan's cap on video projects is reached. Delete old videos with ${command('delete')} or upgrade the plan.`,
  'api.not_found': (p) => md`${p.what ?? 'That'} was not found in your team.`,
  'api.conflict': (p) =>
    md`That changed meanwhile: ${p.message} I re-read it; check the current state and try again.`,
  'api.rate_limited': (p) =>
    p.retryAfter !== undefined
      ? md`The video service is busy for your team. Try again in ${p.retryAfter} s.`
      : md`The video service is busy for your team. Try again in a minute.`,
  'api.internal_error': () =>
    md`The video service had an internal error and did not finish. Nothing was charged twice; try again in a moment.`,
  'api.connection_error': () => md`I could not reach the video service. Try again in a moment.`,
  'api.timeout': () => md`The video service took too long to answer. Try again in a moment.`,
  'api.invalid_response': () =>
    md`The video service sent an answer I could not read. The team has been told in the logs.`,
  'api.unknown': (p) =>
    md`The video service refused this (${p.type}): ${p.message}\nNothing was changed on my side. Try again later; if it keeps happening, check the dashboard or tell your admin.`,
  internal: (p) => md`Something went wrong on my side (ref \`${p.ref}\`). Nothing was half-done; try again.`,
  'internal-after-write': (p) =>
    md`Something went wrong on my side (ref \`${p.ref}\`) after I had asked the video service for the change: it may have gone through. ${command('status')} shows where things stand; pressing again never charges or posts twice.`,
  'effect-unsaved': (p) =>
    md`The video service took ${p.what}, but I couldn't record it on my side (ref \`${p.ref}\`). It may have gone through: pressing again will not charge or post twice, and I will finish it here by myself within a few minutes.`,
  'database-busy': (p) =>
    md`I couldn't save that: my database is busy (ref \`${p.ref}\`). Nothing was changed; try again in a moment.`,
  ...TEAM_MESSAGES,
} satisfies Record<string, Wording>;

/** A count as people read it: `10,000`. */
function count(n: CardText | number): CardText {
  const value = Number(n);
  return Number.isFinite(value) ? literal(value.toLocaleString('en-US')) : md`${n}`;
}

/** A param in lower case (a field's label in running text): lower-casing escaped text leaves it escaped. */
const lower = (value: CardText | number): CardText => String(value).toLowerCase() as CardText;

/** The field a length check names, as its form labels it: `field` when given, else the option's name. */
function fieldName(p: Said): CardText {
  const words = fieldWord(p);
  // Upper-casing the first character of escaped text leaves it escaped (a backslash has no case).
  return (words.charAt(0).toUpperCase() + words.slice(1)) as CardText;
}

/** The field in running text: `master-style` → `master style`. */
const fieldWord = (p: Said): CardText =>
  // `say` escaped the param, and no escape holds a dash, so the words stay escaped.
  String(p.field ?? p.option ?? 'text').replace(/-/g, ' ') as CardText;

/** Every code the bot can word; `userError` and `say` take only these. */
export type MessageCode = keyof typeof MESSAGES;

/**
 * Params that hold card markdown the core built (mentions, lists of code spans, other messages); their
 * user-given parts were escaped where they were built. Every other string param is escaped by `say`.
 */
const MARKDOWN_PARAMS: Readonly<Partial<Record<MessageCode, readonly string[]>>> = {
  'effect-unsaved': ['what'],
  'ambiguous-video': ['matches'],
  'ambiguous-series': ['matches'],
  'ambiguous-voice': ['matches'],
  'form-not-saved': ['errors'],
  'not-allowed': ['who'],
  'one-shot-done': ['who', 'what'],
  'key-check-failed': ['reason'],
  'bad-setting-value': ['expected'],
  'setting-needs-value': ['expected'],
  'not-subscribed': ['what'],
  'alerts-cannot-post': ['where'],
  'alerts-unverified': ['where'],
  'series-unknown-value': ['allowed'],
  'approval-not-approver': ['approvers'],
  'approval-self': ['approvers'],
  'content-locked': ['what', 'who'],
  'policy-admins-only': ['who'],
  'policy-loosen': ['requires', 'who'],
  'nobody-holds-role': ['where'],
  'nobody-approves': ['where'],
  'approval-retry-approver': ['who'],
  'approval-withdraw-not-yours': ['who'],
  'approval-unknown-stage': ['stages'],
  'approval-resubmit-not-yours': ['who'],
  'approval-not-charged': ['reason'],
  'api.not_found': ['what'],
};

/** Words for a code, as card markdown. An unknown code is a bug, but still answers the user. */
export function say(code: MessageCode, params: Params = {}): CardText {
  const wording: Wording | undefined = MESSAGES[code];
  if (!wording) return md`Something went wrong (${literal(code)}).`;
  const markdown = MARKDOWN_PARAMS[code] ?? [];
  const safe: Record<string, CardText | number> = {};
  for (const [key, value] of Object.entries(params)) {
    // A MARKDOWN_PARAMS value is card text the core built (its user parts escaped where it was built).
    safe[key] =
      typeof value !== 'string' ? value : markdown.includes(key) ? (value as CardText) : literal(value);
  }
  return wording(safe as Said);
}

export const hasMessage = (code: string): code is MessageCode => Object.hasOwn(MESSAGES, code);

/**
 * Codes about how a command was typed: the dispatcher answers them with the command's usage and an example,
 * whether the parser or a handler found them. Codes about the state of things get no usage: the command was
 * typed right. Each code's kind is in `message-kinds.ts`.
 */
export const isInputMistake = (code: MessageCode): boolean => MESSAGE_KINDS[code] === 'input';
