/**
 * Every user-facing sentence for expected mistakes and API failures, keyed by a stable code.
 * Adapters never word anything themselves; commands throw `userError(code, params)`.
 * Params are values as given (typed text, names, API messages): `say` escapes them for card text, except the
 * few listed in MARKDOWN_PARAMS, which the core builds as card markdown (mentions, code spans).
 */
import { MESSAGE_KINDS } from './message-kinds.js';
import { command, flag, hole, literal } from './text.js';

type Params = Record<string, string | number>;
type Wording = (p: Params) => string;

const MESSAGES = {
  // Grammar and arguments
  'unknown-command': (p) =>
    `I don't know the command \`${p.command}\`.` +
    (p.suggestion ? ` Did you mean ${command(String(p.suggestion))}?` : '') +
    ` Type ${command('help')} for the list.`,
  'unknown-subcommand': (p) =>
    `\`${p.group} ${p.sub}\` isn't a command. Type ${command('help', [String(p.group)])} for its commands.`,
  'missing-subcommand': (p) =>
    `\`${p.group}\` needs a subcommand. Type ${command('help', [String(p.group)])} to see them.`,
  'unknown-flag': (p) => `\`${p.command}\` has no option \`--${p.flag}\`.`,
  'missing-flag-value': (p) => `\`--${p.flag}\` needs a value.`,
  'missing-arg': (p) => `\`${p.command}\` needs \`${p.option}\`.`,
  'extra-arg': (p) => `I didn't expect \`${p.value}\` there. Quote text that has spaces.`,
  'unterminated-quote': (p) => `A quote opened at character ${p.at} is never closed.`,
  'bad-int': (p) => `\`${p.option}\` must be a whole number, not \`${p.value}\`.`,
  'int-range': (p) => `\`${p.option}\` must be between ${p.min} and ${p.max} (got ${p.value}).`,
  'bad-boolean': (p) => `\`${p.option}\` must be yes or no, not \`${p.value}\`.`,
  'bad-choice': (p) => `\`${p.value}\` isn't a valid \`${p.option}\`. Choose one of: ${p.allowed}.`,
  'bad-platform': (p) =>
    p.value ? `\`${p.value}\` isn't a platform. Use one of: ${p.allowed}.` : `Name a platform: ${p.allowed}.`,
  'bad-url': (p) => `\`${p.value}\` isn't a public http(s) URL.`,
  'too-long': (p) =>
    `${fieldName(p)} is ${count(p.length)} characters, ${count(Number(p.length) - Number(p.max))} over its limit of ${count(p.max)}.`,
  'field-required': (p) => `${fieldName(p)} is required${p.file ? ': type it or upload it as a file' : ''}.`,
  'too-short': (p) => `${fieldName(p)} is ${count(p.length)} characters; it needs at least ${count(p.min)}.`,
  // A typed command longer than the platform takes (the adapter says so; the field's own limit is the API's)
  'typed-too-long': (p) =>
    `That ${fieldWord(p)} is ${count(p.length)} characters; a typed ${command(String(p.command))} takes up to ${count(p.cap)} here. ` +
    (Number(p.length) > Number(p.max)
      ? `It also needs to be ${count(p.max)} at most (${count(Number(p.length) - Number(p.max))} over): shorten it, then `
      : '') +
    (p.form
      ? `${Number(p.length) > Number(p.max) ? 'open' : 'Open'} the form (${command(String(p.command))} alone) and paste it there or upload it as a file.`
      : `${Number(p.length) > Number(p.max) ? 'send' : 'Send'} it in shorter pieces.`),
  // Text files: a long script or description uploaded, or shared and named by its link
  'file-wrong-type': (p) =>
    `\`${p.name}\` isn't a text file I can read: upload a ${p.accept} file (plain text, UTF-8).`,
  'file-too-large': (p) =>
    `\`${p.name}\` is too long (${p.length} characters; the limit is ${p.max}). Shorten it and upload it again.`,
  'file-not-text': (p) =>
    `\`${p.name}\` isn't UTF-8 text. Save it as plain text (UTF-8) and upload it again.`,
  'file-not-found': (p) =>
    `I can't open the file \`${p.link}\`. Share a .txt or .md file in this conversation and give its link.`,
  'file-links-unsupported': () => 'Files shared by link are not supported here: paste the text instead.',
  'bad-date': (p) =>
    `I couldn't read \`${p.value}\` as a date. Try \`2026-12-01\`, \`tomorrow\` or \`next friday\`.`,
  'bad-when': (p) =>
    `I couldn't read \`${p.value}\` as a time. Try \`tomorrow 9am\`, \`friday 18:00\` or \`2026-12-01 18:00\`.`,
  'past-time': (p) => `${p.when} is in the past. Pick a time in the future, e.g. \`${p.suggestion}\`.`,
  'past-day': (p) => `\`${p.value}\` is in the past. Pick a time in the future, e.g. \`${p.suggestion}\`.`,
  'too-far-ahead': (p) =>
    `${p.when} is more than a year ahead: a post can be scheduled up to ${p.latest} at the latest.`,
  'bad-timezone': (p) =>
    `\`${p.value}\` isn't an IANA time zone. Try \`Europe/Paris\` or \`America/New_York\`.`,

  // References
  'not-found-video': (p) =>
    `No video matches \`${p.ref}\` in your team. Try ${command('videos')} to list them.`,
  'not-found-series': (p) => `No series matches \`${p.ref}\` in your team. Try ${command('series list')}.`,
  'ambiguous-video': (p) =>
    `\`${p.ref}\` matches several videos (${p.matches}). Use more of the name or the id.`,
  'ambiguous-series': (p) =>
    `\`${p.ref}\` matches several series (${p.matches}). Use more of the name or the id.`,
  'no-last': (p) => `You have no recent ${p.kind} here yet. Give its name or id instead of \`last\`.`,
  'not-found-voice': (p) => `No voice matches \`${p.ref}\`. Try ${command('voices')} to list them.`,
  'not-found-account': (p) => `No ${p.platform} account matches \`${p.ref}\`. Try ${command('accounts')}.`,
  // In a form the fix is in the form: the account by its label, what to pick instead (never an id or a command).
  'form-account-elsewhere': (p) =>
    `${p.name} is not a ${p.platform} account. Under Account, pick ${p.allowed}, or leave it empty for the default.`,
  'no-account': (p) =>
    `Your team has no ${p.platform} account connected. Connect one in the dashboard first.`,

  // Videos
  'ambiguous-voice': (p) =>
    `\`${p.ref}\` matches several voices (${p.matches}). Use more of the name or the id.`,
  'voice-wrong-language': (p) =>
    `No voice speaking \`${p.language}\` matches \`${p.ref}\`. Drop ${flag('voices', 'language')} or pick a voice from ${command('voices', [], { language: String(p.language) })}.`,
  'no-voices': () => `Your team has no voices available. Check ${command('voices')} or the dashboard.`,
  'model-unavailable': (p) =>
    `The model \`${p.model}\` is not offered to your team right now. Available: ${p.allowed}.`,
  'not-your-request': (p) =>
    `Only ${p.who} can answer this confirmation. Run the command yourself to get your own.`,
  'request-expired': (p) =>
    `This confirmation is more than ${p.minutes} minutes old, so prices and balance may have changed. Run ${command(String(p.command))} again.`,
  'render-not-ready': (p) =>
    `“${p.name}” can't be rendered yet: generation is ${p.status} (${p.percent}%). I'll show a Render button on its card when it completes; ${command('status', [String(p.id)])} shows progress.`,
  'render-of-failed': (p) =>
    `“${p.name}” failed to generate, so there is nothing to render. See ${command('status', [String(p.id)])} for the reasons, then create it again.`,
  'bad-button': () => 'This button is malformed or out of date. Run the command again.',

  // Keys and people
  'approval-external-org': () =>
    'Only members of this workspace decide its approval requests; your organisation is a guest in this shared channel.',
  'workspace-not-allowed': (p) =>
    `This ${p.where} isn't set up for reelbot — ask the team that runs it to add it.`,
  'not-linked': () =>
    `You have not linked an API key yet. Run ${command('link')} to connect your team (the key goes in a private form).`,
  'key-in-channel': () =>
    `Never paste an API key in a channel. Run ${command('link')} with no arguments: a private form opens.`,
  'key-unreadable': () =>
    `Your linked API key can no longer be read here (the server’s encryption key changed). Run ${command('link')} again.`,
  'bad-key': () =>
    'That key was not accepted by the video service. Copy it again from the developer dashboard.',
  'interaction-expired': () => 'This button is no longer valid. Run the command again.',
  // One-shot cards (one-shot.ts): a later click on a confirmation that already acted.
  'one-shot-done': (p) => `Already done by ${p.who} at ${p.when}: ${p.what}. This card no longer acts.`,
  // Honest replays (typed-replay.ts): the same typed command again within the retry window.
  'typed-replay': (p) =>
    `Already ${p.what} at ${p.when} (same command, ${Number(p.minutes) < 1 ? 'less than a minute' : Number(p.minutes) === 1 ? '1 minute' : `${p.minutes} minutes`} ago) — ${p.title}?`,
  'typed-replay-note': (p) =>
    `The same command typed again within ${p.minutes} minutes counts as a retry, so nothing was sent twice.`,
  // Forms on platforms whose modals need a fresh click (Slack trigger ids last 3 s)
  'form-cancel': () => 'Cancel',
  'form-open-button': () => 'Open form',
  'form-open-later': (p) => `**${p.title}** takes a few details in a form. Click the button to open it.`,
  'form-not-saved': (p) => `The form was not saved:\n${p.errors}\nRun the command again to fix it.`,
  'not-allowed': (p) => `Only ${p.who} may ${p.what} in this channel.`,

  // Account, catalog and channel commands
  'key-empty': () => 'Paste the API key from the developer dashboard (API keys page).',
  'key-malformed': () =>
    'An API key is one word with no spaces. Copy it again from the developer dashboard (API keys page).',
  'key-check-failed': (p) =>
    `I could not check the key with the video service: ${p.reason} Nothing was stored.`,
  'bad-mime': (p) =>
    `\`${p.value}\` isn't a MIME type. Use a form like \`video/mp4\`, \`image/png\` or \`audio/mpeg\`.`,
  'page-out-of-range': (p) => `There is no page ${p.page}: the ${p.what} has ${p.pages}.`,
  'bad-setting-value': (p) => `\`${p.key}\` takes ${p.expected}, not \`${p.value}\`.`,
  'setting-needs-value': (p) => `\`settings ${p.key}\` needs a value: ${p.expected}.`,
  'bad-mention': (p) =>
    `\`${p.value}\` isn't a mention I can read. Mention people` +
    (p.group ? ` or a ${p.group}` : '') +
    ' (type @ and pick from the list), or write `everyone`.',
  'subscribe-needs-series': () =>
    `Name the series to follow: ${command('subscribe', ['series', hole('name or id')])} (${command('series list')} shows them).`,
  'subscribe-no-target': (p) => `\`${p.what}\` follows the whole team; drop \`${p.value}\`.`,
  'approval-needs-admin': () =>
    `Say who may change these settings first: run ${command('settings', ['role', 'admin', '@you'])} (add others as you like). ` +
    'Otherwise anyone in the channel could turn approvals off again.',
  'admin-lockout': () =>
    'That admin list leaves you out, and only admins may change it back. Include yourself (or a group you are in).',
  'policy-admins-only': (p) =>
    `The team's rules (approval, approvers, roles, threshold, self-approval, lifetime) are set for the whole workspace by ${p.who}.`,
  'policy-loosen': (p) =>
    `The workspace policy requires ${p.requires}, and a channel can only make it stricter. ${p.who} can change the workspace policy (${command('settings', [hole('key'), hole('value')])} without ${flag('settings', 'here')}).`,
  'audit-workspace-admins': () =>
    `Only the workspace's admins can see the whole workspace's audit log; ${command('audit')} shows this channel's.`,
  'policy-in-dm': () =>
    "A direct message follows the servers' rules: change the team's rules from a server channel.",
  // Tightening that leaves nobody (a channel's list and the workspace's with no one in common), and its fix.
  'role-nobody': (p) =>
    `Nobody may ${p.what} here: the rules this conversation follows name no one in common. ${command('settings')} shows how an admin fixes it.`,
  'nobody-holds-role': (p) =>
    `⚠️ Nobody may **${p.what}** in ${p.where}: its own list and the workspace's have no one in common. Fix it there with ${command('settings', ['role', String(p.role), hole('people the workspace allows')], { here: true })}, or ${command('settings', ['role', String(p.role), 'everyone'], { here: true })} to follow the workspace.`,
  'nobody-holds-role-servers': (p) =>
    `⚠️ Nobody may **${p.what}** from a direct message: the servers' rules name no one in common. Their admins can name the same people in each server (${command('settings', ['role', String(p.role), hole('people')])} from a server channel).`,
  'nobody-approves': (p) =>
    `⚠️ Nobody can approve requests in ${p.where}: its own approvers and the workspace's have no one in common. Fix it there with ${command('settings', ['approvers', hole("the workspace's approvers")], { here: true })}, or ${command('settings', ['approvers', 'none'], { here: true })} to follow the workspace.`,
  'config-external-org': () =>
    'Only members of this workspace change its settings and subscriptions; your organisation is a guest in this shared channel.',
  'not-subscribed': (p) =>
    `This channel doesn't follow ${p.what}. ${command('subscribe')} lists what it follows.`,
  'home-unsubscribe-not-member': () =>
    `Only members of that channel (or the workspace's admins) can stop what it follows; run ${command('unsubscribe')} in the channel if you are in it.`,

  // Series (schedule, edits)
  'series-bad-time': (p) =>
    `\`${p.value}\` isn't a posting time. Use HH:mm on a 24-hour clock, e.g. \`09:00\` or \`18:30\` (or \`6pm\`).`,
  'series-bad-days': (p) =>
    `\`${p.value}\` isn't a weekday. Use \`daily\`, \`weekdays\`, \`weekends\` or names like \`mon,wed,fri\`.`,
  'series-bad-schedule': (p) =>
    `I couldn't read \`${p.value}\` as a schedule. Try \`daily 09:00 Europe/Paris\` or \`mon,wed,fri 18:00\`.`,
  'series-unknown-value': (p) => `\`${p.value}\` isn't a known ${p.what}. Choose one of: ${p.allowed}.`,
  'series-bad-layout': (p) =>
    `\`${p.value}\` isn't a layout name: one word of letters, digits, \`-\` or \`_\` (at most ${p.max} characters), as the dashboard names it.`,
  'series-bad-thumbnail-settings': (p) =>
    `I couldn't read \`${p.value}\` as thumbnail settings. Write \`key=value\` pairs, e.g. \`style=bold,faces=yes\`, or a JSON object.`,
  'series-nothing-to-change': () =>
    'Tell me what to change, e.g. `--time 18:00`, `--days mon,wed,fri`, `--model motion_lite` or `--paused`.',

  // Publishing (meta, publish, schedule, unschedule, calendar)
  'meta-required': (p) => `${p.platform} needs a ${String(p.field).toLowerCase()}.`,
  'meta-too-long': (p) =>
    `The ${p.platform} ${String(p.field).toLowerCase()} is ${p.length} characters; ${p.platform} allows ${p.max}. Nothing was saved.`,
  'when-needs-time': (p) =>
    `\`${p.value}\` has no time of day. Add one, e.g. \`${p.first}\`${p.second ? ` or \`${p.second}\`` : ''}.`,
  'privacy-youtube-only': (p) => `\`--privacy\` applies to YouTube only, not ${p.platform}. Drop it.`,
  'caption-audio-and-video': () =>
    'Give `--audio` or `--video`, not both: `--audio` sends the URL as audio, `--video` as a video.',
  'publish-too-long': (p) =>
    `\`--${p.option}\` is ${p.length} characters; ${p.platform} allows ${p.max}. Shorten it; nothing was posted.`,
  'description-unsupported': (p) =>
    `\`--description\` applies to YouTube, Facebook and LinkedIn, not ${p.platform}. Put the text in \`--title\` instead.`,
  'account-choose': (p) =>
    `${p.count} ${p.platform} accounts are connected and none is the default: pick one.`,
  'publish-video-failed': (p) =>
    `**${p.name}** failed to generate, so there is nothing to publish. Create it again.`,
  'schedule-video-failed': (p) =>
    `**${p.name}** failed to generate, so it cannot be scheduled. Create it again.`,
  'reschedule-nothing': (p) =>
    `**${p.name}** has nothing scheduled${p.where ? ` on ${p.where}` : ''} to move. Use ${command('schedule')} to schedule it.`,
  'move-other-due': (p) =>
    `**${p.name}** is due on ${p.platform} at ${p.when}: too soon to cancel and schedule again for the move (the service cancels every platform at once). Try again once it has gone out.`,
  'move-nothing-left': (p) =>
    `Nothing of **${p.name}** is scheduled any more (it may have just gone out), so nothing was moved. ${command('calendar')} shows what happened.`,
  'move-incomplete': (p) =>
    `The scheduled posts of **${p.name}** were cancelled for the move, but scheduling them again failed, so these are not scheduled now: ${p.lost}. Schedule them again with ${command('schedule')}.`,
  'date-range-reversed': (p) =>
    `\`--to\` (${p.to}) is before \`--from\` (${p.from}): a range goes from the earlier day to the later one. Try \`--from ${p.to} --to ${p.from}\`.`,
  'calendar-range-too-long': (p) =>
    `That range covers ${p.days} days; the calendar shows at most ${p.max}. Narrow \`--from\`/\`--to\`.`,

  // Approvals, roles and audit (DESIGN §5)
  'approval-no-approvers': () =>
    `This channel needs an approver for this, but nobody is one yet. Ask an admin to run ${command('settings', ['approvers', '@name'])}. Nothing was sent.`,
  'approval-only-you': () =>
    `You are the only approver here and self-approval is off, so nobody could approve this. Ask an admin to add approvers (${command('settings', ['approvers'])}) or allow ${command('settings', ['self-approval', 'on'])}. Nothing was sent.`,
  'content-locked': (p) =>
    `**${p.what}** ${p.state}, and the service posts the name, post details and thumbnail as they are at post time. Only ${p.who} may change them now (a change then goes back to the approvers). Nothing was changed.`,
  'approval-elsewhere': () => 'This approval belongs to another channel. Decide it there.',
  'approval-not-approver': (p) => `Only approvers can decide this: ${p.approvers}.`,
  'approval-unverifiable': () =>
    "I can't verify that you are an approver right now (your group membership could not be checked). Try again in a minute; nothing was decided.",
  'approval-self': (p) =>
    `You asked for this, and this channel does not allow approving your own requests. ${p.approvers} can decide it.`,
  'approval-malformed': () => 'This approval is malformed, so I did not run it. Ask for it again.',
  'approval-not-rendered': (p) => `**${p.name}** is no longer rendered; render it, then ask again.`,
  'approval-too-late': (p) =>
    `Its scheduled time (${p.when}) has passed. Use **Reschedule** to pick a new one.`,
  'approval-not-charged': (p) => `${p.reason}`,
  'approval-create-cancelled': () => 'The requester cancelled this create. Nothing was charged.',
  'approval-retry-approver': (p) =>
    `Only ${p.who}, who approved it, can retry: a retry must use the same API key so it never runs twice.`,
  'approval-withdraw-not-yours': (p) =>
    `Only ${p.who}, who asked for it, can withdraw this request. An approver can Approve or Reject it instead.`,

  // Files sent with an answer (`--csv` exports)
  'csv-with-page': () => '`--csv` exports every video in one file; leave out `--page`.',
  'file-in-dm': (p) => `I sent \`${p.filename}\` to our direct messages, so only you can see it.`,
  'file-not-carried': (p) =>
    `This message cannot carry the file \`${p.filename}\`; run the command again to get it.`,
  'file-upload-failed': (p) =>
    `I couldn't send the file \`${p.filename}\` (${p.reason}). Nothing else was changed; try again in a moment.`,

  // API failures (DESIGN §6), by error.type
  'api.invalid_input': (p) => `The video service rejected the request: ${p.message}`,
  'api.unauthorized': () =>
    `The video service no longer accepts your API key (revoked or wrong). Run ${command('link')} with a fresh key.`,
  'api.insufficient_credits': (p) =>
    p.cost !== undefined && p.balance !== undefined
      ? `Not enough credits: this costs ${p.cost} and your team has ${p.balance}. Top up in the dashboard, or pick a cheaper model (storyboard costs 20).`
      : `Your team does not have enough credits for this. Check ${command('credits')} and top up in the dashboard.`,
  'api.payment_failed': () =>
    'The payment failed at the video service, so nothing was charged or created. Update the payment method in the dashboard, then try again.',
  'api.forbidden_scope': (p) =>
    p.scope
      ? `Your API key lacks the \`${p.scope}\` scope. Create a key with it in the dashboard and run ${command('link')}.`
      : `Your API key lacks a scope this needs (${p.message}). Create a key with it and run ${command('link')}.`,
  'api.usage_limit_reached': () =>
    `Your plan's cap on video projects is reached. Delete old videos with ${command('delete')} or upgrade the plan.`,
  'api.not_found': (p) => `${p.what ?? 'That'} was not found in your team.`,
  'api.conflict': (p) =>
    `That changed meanwhile: ${p.message} I re-read it; check the current state and try again.`,
  'api.rate_limited': (p) =>
    p.retryAfter !== undefined
      ? `The video service is busy for your team. Try again in ${p.retryAfter} s.`
      : 'The video service is busy for your team. Try again in a minute.',
  'api.internal_error': () =>
    'The video service had an internal error and did not finish. Nothing was charged twice; try again in a moment.',
  'api.connection_error': () => 'I could not reach the video service. Try again in a moment.',
  'api.timeout': () => 'The video service took too long to answer. Try again in a moment.',
  'api.invalid_response': () =>
    'The video service sent an answer I could not read. The team has been told in the logs.',
  'api.unknown': (p) =>
    `The video service refused this (${p.type}): ${p.message}\nNothing was changed on my side. Try again later; if it keeps happening, check the dashboard or tell your admin.`,
  internal: (p) => `Something went wrong on my side (ref \`${p.ref}\`). Nothing was half-done; try again.`,
  'internal-after-write': (p) =>
    `Something went wrong on my side (ref \`${p.ref}\`) after I had asked the video service for the change: it ` +
    `may have gone through. ${command('status')} shows where things stand; pressing again never charges or posts twice.`,
  'effect-unsaved': (p) =>
    `The video service took ${p.what}, but I couldn't record it on my side (ref \`${p.ref}\`). It may have gone ` +
    'through: pressing again will not charge or post twice, and I will finish it here by myself within a few minutes.',
  'database-busy': (p) =>
    `I couldn't save that: my database is busy (ref \`${p.ref}\`). Nothing was changed; try again in a moment.`,
} satisfies Record<string, Wording>;

/** A count as people read it: `10,000`. */
function count(n: string | number | undefined): string {
  const value = Number(n);
  return Number.isFinite(value) ? value.toLocaleString('en-US') : String(n);
}

/** The field a length check names, as its form labels it: `field` when given, else the option's name. */
function fieldName(p: Params): string {
  const words = fieldWord(p);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field in running text: `master-style` → `master style`. */
const fieldWord = (p: Params): string => String(p.field ?? p.option ?? 'text').replace(/-/g, ' ');

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
  'approval-not-charged': ['reason'],
  'api.not_found': ['what'],
};

/** Words for a code, as card markdown. An unknown code is a bug, but still answers the user. */
export function say(code: MessageCode, params: Params = {}): string {
  const wording: Wording | undefined = MESSAGES[code];
  if (!wording) return `Something went wrong (${literal(code)}).`;
  const markdown = MARKDOWN_PARAMS[code] ?? [];
  const safe: Params = {};
  for (const [key, value] of Object.entries(params)) {
    safe[key] = typeof value === 'string' && !markdown.includes(key) ? literal(value) : value;
  }
  return wording(safe);
}

export const hasMessage = (code: string): code is MessageCode => Object.hasOwn(MESSAGES, code);

/**
 * Codes about how a command was typed: the dispatcher answers them with the command's usage and an example,
 * whether the parser or a handler found them. Codes about the state of things get no usage: the command was
 * typed right. Each code's kind is in `message-kinds.ts`.
 */
export const isInputMistake = (code: MessageCode): boolean => MESSAGE_KINDS[code] === 'input';
