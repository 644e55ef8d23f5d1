/**
 * The bot scopes follow from the code: every Slack Web API method the adapter calls is looked up in the table
 * below (the bot scopes Slack's method reference lists for it, the ones reelbot's use needs), and the manifest
 * asks for exactly those plus the scopes of features that are not methods. A method added without its row, a
 * scope left behind, or a manifest header that explains other scopes than it declares fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_SCOPE_NAMES } from '../../adapters/slack/scopes.js';

const root = join(import.meta.dirname, '../..');

/** Method → the bot scopes reelbot's use of it needs (Slack's method reference, "Required scopes"). */
const METHOD_SCOPES: Record<string, readonly string[]> = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  // A card already posted is looked up in public and private channels the bot is in.
  'conversations.history': ['channels:history', 'groups:history'],
  'conversations.replies': ['channels:history', 'groups:history'],
  // The member's DM with the app (App Home actions answer there).
  'conversations.open': ['im:write'],
  // Who is in a channel or private channel (which subscriptions a member may see on the dashboard).
  'conversations.members': ['channels:read', 'groups:read'],
  'conversations.info': ['channels:read', 'groups:read'],
  'files.info': ['files:read'],
  // files.getUploadURLExternal + files.completeUploadExternal underneath.
  'files.uploadV2': ['files:write'],
  'usergroups.list': ['usergroups:read'],
  'users.info': ['users:read'],
  'views.open': [],
  'views.update': [],
  'views.publish': [],
};

/** Scopes for features that are not Web API calls. */
const FEATURE_SCOPES = {
  commands: 'the /reel slash command',
  'chat:write.public': 'posting a card in a public channel the bot was not invited to',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `client.chat.postMessage(`, `client?.files.uploadV2(`… anywhere in the Slack adapter. */
function methodsCalled(): Set<string> {
  const found = new Set<string>();
  for (const file of sourceFiles('adapters/slack')) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/\bclient\??\.([a-z]+)\??\.([A-Za-z0-9]+)\s*\(/g))
      found.add(`${m[1]}.${m[2]}`);
  }
  return found;
}

const manifest = readFileSync(join(root, 'manifest.yml'), 'utf8');

describe('Slack scopes, derived from the Web API methods the code calls', () => {
  const called = methodsCalled();

  it('finds the methods the adapter is known to call', () => {
    for (const m of ['chat.postMessage', 'chat.update', 'views.publish', 'conversations.open']) {
      expect(called).toContain(m);
    }
  });

  it('knows the scopes of every method called', () => {
    expect([...called].filter((m) => !(m in METHOD_SCOPES))).toEqual([]);
  });

  it('asks for exactly the scopes those methods and the features need', () => {
    const needed = new Set([...called].flatMap((m) => METHOD_SCOPES[m] ?? []));
    for (const s of Object.keys(FEATURE_SCOPES)) needed.add(s);
    expect([...BOT_SCOPE_NAMES].sort()).toEqual([...needed].sort());
  });

  it("explains in the manifest's header exactly the scopes it declares", () => {
    const bot = /\n {4}bot:\n((?: {6}- .+\n)+)/.exec(manifest)?.[1] ?? '';
    const declared = [...bot.matchAll(/^ {6}- ([a-z:.]+)$/gm)].map((m) => m[1]);
    const header = manifest.split('\n_metadata:')[0] ?? '';
    const explained = [...header.matchAll(/^# {3}([a-z]+:[a-z:.]+|commands)\s{2,}\S/gm)].map((m) => m[1]);
    expect([...explained].sort()).toEqual([...declared].sort());
    expect([...declared].sort()).toEqual([...BOT_SCOPE_NAMES].sort());
  });
});
