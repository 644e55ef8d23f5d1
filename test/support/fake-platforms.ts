/**
 * The fake Slack and the fake Discord on 127.0.0.1, with the environment that points a spawned app at them
 * (the production configuration the start-up suites and the cold-start bench run).
 */
import { FakeDiscord } from '../discord/fake-discord.js';
import { IDS, TOKEN } from '../discord/world.js';
import { FakeSlack } from '../slack/fake-slack.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../slack/world.js';

export interface FakePlatforms {
  slack: FakeSlack;
  discord: FakeDiscord;
  /** SLACK_* and DISCORD_* for the app. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startFakePlatforms(): Promise<FakePlatforms> {
  const slack = await FakeSlack.start();
  const discord = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
  }).start();
  return {
    slack,
    discord,
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      DISCORD_TOKEN: TOKEN,
      DISCORD_APPLICATION_ID: IDS.app,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_GUILD_ID: IDS.guild,
    },
    async close() {
      await Promise.all([slack.close(), discord.close()]);
    },
  };
}
