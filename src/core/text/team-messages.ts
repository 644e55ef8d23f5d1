/**
 * The message table's wordings for the team's own set-up (messages.ts holds the rest and `say`): account,
 * catalog and channel commands, settings and subscriptions, and approvals, roles and audit (DESIGN §5).
 */
import type { Wording } from './messages.js';
import { command, flag, hole, md } from './text.js';

export const TEAM_MESSAGES = {
  // Account, catalog and channel commands
  'key-empty': () => md`Paste the API key from the developer dashboard (API keys page).`,
  'key-malformed': () =>
    md`An API key is one word with no spaces. Copy it again from the developer dashboard (API keys page).`,
  'key-check-failed': (p) =>
    md`I could not check the key with the video service: ${p.reason} Nothing was stored.`,
  'bad-mime': (p) =>
    md`\`${p.value}\` isn't a MIME type. Use a form like \`video/mp4\`, \`image/png\` or \`audio/mpeg\`.`,
  'page-out-of-range': (p) => md`There is no page ${p.page}: the ${p.what} has ${p.pages}.`,
  'bad-setting-value': (p) => md`\`${p.key}\` takes ${p.expected}, not \`${p.value}\`.`,
  'setting-needs-value': (p) => md`\`settings ${p.key}\` needs a value: ${p.expected}.`,
  'bad-mention': (p) =>
    md`\`${p.value}\` isn't a mention I can read. Mention people${p.group ? md` or a ${p.group}` : md``} (type @ and pick from the list), or write \`everyone\`.`,
  'subscribe-needs-series': () =>
    md`Name the series to follow: ${command('subscribe', ['series', hole('name or id')])} (${command('series list')} shows them).`,
  'subscribe-no-target': (p) => md`\`${p.what}\` follows the whole team; drop \`${p.value}\`.`,
  'digest-bad-schedule': (p) =>
    md`I couldn't read \`${p.value}\` as a digest time. Try ${command('subscribe', ['digest', 'daily', '09:00'])} or ${command('subscribe', ['digest', 'weekly', 'mon', '09:00'])}.`,
  'notify-off-and-dm': () => md`With mentions off nothing is sent to you: \`--dm\` has nothing to move.`,
  'approval-needs-admin': () =>
    md`Say who may change these settings first: run ${command('settings', ['role', 'admin', '@you'])} (add others as you like). Otherwise anyone in the channel could turn approvals off again.`,
  'admin-lockout': () =>
    md`That admin list leaves you out, and only admins may change it back. Include yourself (or a group you are in).`,
  'policy-admins-only': (p) =>
    md`The team's rules (approval, approvers, roles, threshold, self-approval, lifetime) are set for the whole workspace by ${p.who}.`,
  'policy-loosen': (p) =>
    md`The workspace policy requires ${p.requires}, and a channel can only make it stricter. ${p.who} can change the workspace policy (${command('settings', [hole('key'), hole('value')])} without ${flag('settings', 'here')}).`,
  'audit-workspace-admins': () =>
    md`Only the workspace's admins can see the whole workspace's audit log; ${command('audit')} shows this channel's.`,
  'policy-in-dm': () =>
    md`A direct message follows the servers' rules: change the team's rules from a server channel.`,
  // Tightening that leaves nobody (a channel's list and the workspace's with no one in common), and its fix.
  'role-nobody': (p) =>
    md`Nobody may ${p.what} here: the rules this conversation follows name no one in common. ${command('settings')} shows how an admin fixes it.`,
  'nobody-holds-role': (p) =>
    md`⚠️ Nobody may **${p.what}** in ${p.where}: its own list and the workspace's have no one in common. Fix it there with ${command('settings', ['role', String(p.role), hole('people the workspace allows')], { here: true })}, or ${command('settings', ['role', String(p.role), 'everyone'], { here: true })} to follow the workspace.`,
  'nobody-holds-role-servers': (p) =>
    md`⚠️ Nobody may **${p.what}** from a direct message: the servers' rules name no one in common. Their admins can name the same people in each server (${command('settings', ['role', String(p.role), hole('people')])} from a server channel).`,
  'nobody-approves': (p) =>
    md`⚠️ Nobody can approve requests in ${p.where}: its own approvers and the workspace's have no one in common. Fix it there with ${command('settings', ['approvers', hole("the workspace's approvers")], { here: true })}, or ${command('settings', ['approvers', 'none'], { here: true })} to follow the workspace.`,
  'config-external-org': () =>
    md`Only members of this workspace change its settings and subscriptions; your organisation is a guest in this shared channel.`,
  'not-subscribed': (p) =>
    md`This channel doesn't follow ${p.what}. ${command('subscribe')} lists what it follows.`,
  'home-unsubscribe-not-member': () =>
    md`Only members of that channel (or the workspace's admins) can stop what it follows; run ${command('unsubscribe')} in the channel if you are in it.`,
  // Budget alerts' channel (`settings alerts #channel`, DESIGN §5)
  'alerts-other-workspace': (p) =>
    md`That channel belongs to another ${p.what}: budget alerts go to a channel of this one.`,
  'alerts-cannot-post': (p) =>
    md`I can't post in ${p.where}: add me to that channel, then set it again. Nothing was changed.`,
  'alerts-unverified': (p) =>
    md`I couldn't check that I can post in ${p.where} right now, so nothing was changed. Try again in a minute.`,
  'alerts-workspace-only': (p) =>
    md`\`${p.key}\` is set for the whole workspace, not one channel: run it without ${flag('settings', 'here')}.`,

  // Approvals, roles and audit (DESIGN §5)
  'approval-no-approvers': () =>
    md`This channel needs an approver for this, but nobody is one yet. Ask an admin to run ${command('settings', ['approvers', '@name'])}. Nothing was sent.`,
  'approval-only-you': () =>
    md`You are the only approver here and self-approval is off, so nobody could approve this. Ask an admin to add approvers (${command('settings', ['approvers'])}) or allow ${command('settings', ['self-approval', 'on'])}. Nothing was sent.`,
  'content-locked': (p) =>
    md`**${p.what}** ${p.state}, and the service posts the name, post details and thumbnail as they are at post time. Only ${p.who} may change them now (a change then goes back to the approvers). Nothing was changed.`,
  'approval-elsewhere': () => md`This approval belongs to another channel. Decide it there.`,
  'approval-not-approver': (p) => md`Only approvers can decide this: ${p.approvers}.`,
  'approval-unverifiable': () =>
    md`I can't verify that you are an approver right now (your group membership could not be checked). Try again in a minute; nothing was decided.`,
  'approval-self': (p) =>
    md`You asked for this, and this channel does not allow approving your own requests. ${p.approvers} can decide it.`,
  'approval-malformed': () => md`This approval is malformed, so I did not run it. Ask for it again.`,
  'approval-not-rendered': (p) => md`**${p.name}** is no longer rendered; render it, then ask again.`,
  'approval-too-late': (p) =>
    md`Its scheduled time (${p.when}) has passed. Use **Reschedule** to pick a new one.`,
  'approval-not-charged': (p) => md`${p.reason}`,
  'approval-create-cancelled': () => md`The requester cancelled this create. Nothing was charged.`,
  'approval-retry-approver': (p) =>
    md`Only ${p.who}, who approved it, can retry: a retry must use the same API key so it never runs twice.`,
  'approval-withdraw-not-yours': (p) =>
    md`Only ${p.who}, who asked for it, can withdraw this request. An approver can Approve or Reject it instead.`,
  'approval-unknown-stage': (p) =>
    md`There is no stage \`${p.stage}\`: the stages are ${p.stages}. Nothing was changed.`,
  'approval-no-stages': () =>
    md`Approvals have no stages yet, so there is no stage to set. Name them first with ${command('settings', ['approval', 'stages', 'brand,legal'])}.`,
  'approval-stages-workspace': () =>
    md`Stages and their approvers are set for the whole workspace: run the same command without ${flag('settings', 'here')}.`,
  'approval-stage-no-approvers': (p) =>
    md`The **${p.stage}** stage needs an approver, but nobody is one yet. Ask an admin to run ${command('settings', ['approvers', '@name'], { stage: hole('stage') })}. Nothing was sent.`,
  'approval-resubmit-not-yours': (p) =>
    md`Only ${p.who}, who asked for it, can send a new version. An approver waits for it.`,
  'approval-stage-option': () =>
    md`${flag('settings', 'stage')} goes with ${command('settings', ['approval', 'all'])} (or \`any\`) and ${command('settings', ['approvers', '@name'])}: the stage they set.`,
  'approval-resubmit-too-late': (p) =>
    md`Its scheduled time (${p.when}) has passed, so it cannot go back to the approvers. Schedule it again for a new time.`,
} satisfies Record<string, Wording>;
