/**
 * The shared key's scope on Discord: a server not in REELBOT_WORKSPACES, or a DM unless
 * `discord:@me` is listed, is refused by the adapter before the core runs — through the real discord.js
 * Client (gateway) and the signed HTTP endpoint, against the local fake Discord.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userAddress } from '../../src/core/ports/address.js';
import { DEMO_KEY } from '../support/harness.js';
import {
  commandOptions,
  discordWorld,
  IDS,
  interactionPayload,
  type Json,
  MEMBERS,
  textOfMessage,
  type World,
} from './world.js';

const STRANGER_GUILD = '1399999999999999999';
const REFUSED = /This (server|direct message) isn't set up for reelbot — ask the team that runs it/;

let w: World;
afterEach(() => w.close());

/** `/reel credits` as alice would send it from another server, or from a DM (no guild at all). */
function creditsFrom(where: 'stranger' | 'dm'): Json {
  const payload = interactionPayload('chat-input', 'alice');
  payload.data.options = commandOptions(w.fake, ['credits'], {});
  if (where === 'stranger') {
    payload.guild_id = STRANGER_GUILD;
    payload.channel.guild_id = STRANGER_GUILD;
    return payload;
  }
  delete payload.guild_id;
  delete payload.channel.guild_id;
  payload.channel.type = 1;
  payload.user = payload.member.user;
  delete payload.member;
  payload.context = 1;
  return payload;
}

const privately = (record: { callbacks: Json[] }) => record.callbacks[0] as Json;
const logged = (w: World) => w.h.logs.filter((l) => l.includes('not in REELBOT_WORKSPACES'));

describe.each(['gateway', 'http'] as const)('Discord workspaces (%s)', (mode) => {
  it('refuses another server privately, before the core, and logs it once', async () => {
    w = await discordWorld({ mode, workspaces: [`discord:${IDS.guild}`], harness: { proxy: true } });
    for (let i = 0; i < 2; i++) {
      const record = await w.send(creditsFrom('stranger'));
      const answer = privately(record);
      expect(answer.type).toBe(4);
      expect(answer.data.flags & 64).toBe(64);
      expect(JSON.stringify(answer.data)).toMatch(REFUSED);
    }
    // Nothing reached the video API under the team's key, and the operator has one log line.
    expect(w.h.proxy?.calls).toEqual([]);
    expect(logged(w)).toHaveLength(1);
    // The team's own server is served as before.
    const own = await w.slash('credits');
    expect(textOfMessage(w.answer(own))).toMatch(/500/);
  });

  it('refuses DMs unless discord:@me is listed', async () => {
    w = await discordWorld({ mode, workspaces: [`discord:${IDS.guild}`] });
    expect(JSON.stringify(privately(await w.send(creditsFrom('dm'))).data)).toMatch(
      /This direct message isn't set up/,
    );
    await w.close();
    w = await discordWorld({ mode, workspaces: [`discord:${IDS.guild}`, 'discord:@me'] });
    const record = await w.send(creditsFrom('dm'));
    expect(JSON.stringify(record.callbacks)).not.toMatch(REFUSED);
  });

  it('answers autocomplete from another server with nothing, even for a member with a key there', async () => {
    w = await discordWorld({ mode, workspaces: [`discord:${IDS.guild}`], harness: { proxy: true } });
    await w.h.store.keys.put(userAddress('discord', STRANGER_GUILD, MEMBERS.alice.id), {
      apiKey: DEMO_KEY,
      keyPrefix: DEMO_KEY.slice(0, 12),
      teamId: 'team',
      teamName: 'Team',
    });
    const payload = interactionPayload('autocomplete', 'alice');
    payload.data.options = commandOptions(w.fake, ['status'], { video: 'l' }, 'video');
    payload.guild_id = STRANGER_GUILD;
    const record = await w.send(payload);
    expect(privately(record)).toEqual({ type: 8, data: { choices: [] } });
    expect(w.h.proxy?.calls).toEqual([]);
  });
});
