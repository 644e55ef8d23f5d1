/**
 * Socket Mode against a local WebSocket server: with `SLACK_APP_TOKEN` the adapter asks the (fake) Web API
 * for a connection (`apps.connections.open` with the app token), connects to the `ws://127.0.0.1` URL it
 * returns, waits for `hello`, then receives a slash command envelope, acknowledges it with its envelope id
 * and answers through response_url. No HTTP endpoint is mounted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, fixture, type SlackWorld, slackWorld } from './world.js';

const APP_TOKEN =
  'xapp-1-A0REELBOT-7141926741253-4f2b7c1e9d8a6b5c3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld({ slack: { appToken: APP_TOKEN } });
});
afterAll(() => w.close());

describe('Socket Mode', () => {
  it('connects, acknowledges a slash command envelope and answers it', async () => {
    const open = w.fake.callsOf('apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]?.token).toBe(APP_TOKEN);
    await w.fake.waitFor(() => w.fake.socketConnections === 1, 'a Socket Mode connection');
    // No events endpoint in Socket Mode.
    expect((await w.send('{}', 'application/json')).status).toBe(404);

    const envelope = fixture<{ envelope_id: string; payload: Record<string, string> }>(
      'socket-slash-command.json',
    );
    const responseUrl = w.fake.responseUrl();
    envelope.payload.response_url = responseUrl;
    w.fake.sendSocket(envelope as unknown as Record<string, unknown>);

    const ack = await w.fake.waitFor(
      () => w.fake.socketReceived.find((frame) => frame.envelope_id === envelope.envelope_id),
      'the envelope ack',
    );
    expect(ack).toEqual({ envelope_id: '1d3c3d9b-3f8a-4c2e-9d43-2f1a9e6c7b10', payload: {} });
    const reply = await w.reply(responseUrl);
    expect(reply.response_type).toBe('ephemeral');
    expect(blocksText(reply.blocks as unknown[])).toContain('You act as');
  });
});
